/**
 * What a test client holds of the live state (the last snapshot with the deltas after it), and a wait for
 * that state to satisfy a condition: shared by the service tests that follow the state a viewer sees.
 */
import { applyDelta, type LiveState, type ServerMessage } from '@muster/protocol';
import type { TestClient } from './helpers.ts';

/** The state a client holds after the messages it received so far (snapshot + deltas). */
export function heldState(messages: readonly ServerMessage[]): LiveState | null {
  let state: LiveState | null = null;
  for (const m of messages) {
    if (m.type === 'snapshot') state = m.state;
    else if (m.type === 'delta' && state) state = applyDelta(state, m) ?? state;
  }
  return state;
}

/** Waits until the state `client` holds satisfies `ok`; on the deadline, says what it held. */
export async function untilHeld(client: TestClient, ok: (s: LiveState) => boolean, what: string, timeoutMs: number): Promise<LiveState> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const s = heldState(client.messages);
    if (s && ok(s)) return s;
    if (Date.now() > deadline) {
      throw new Error(
        `timed out waiting for ${what}; evaluation ${s?.evaluation?.rulesetId ?? 'null'}, ruleset ${s?.ruleset?.current?.id ?? 'none'}, seq ${s?.seq}, stands ${s?.tableState.stands.length}, evaluatedState ${JSON.stringify(s?.evaluatedState)}, messages ${client.messages.length}, health ${JSON.stringify(s?.health.warnings)}`,
      );
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}
