/**
 * The service draws action cards from the deck of the rule set it runs with (`--ruleset`): the demo with
 * the default rule set draws The Devil to Pay's cards; started with a rule set that is not installed it
 * runs without rules and without a deck, and a draw says so instead of dealing another game's cards.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startLive } from '../../apps/server/src/compose/startLive.ts';
import type { RunningLive } from '../../apps/server/src/compose/liveOptions.ts';
import { tempDir, type TempDir } from './helpers.ts';

const TOKEN = 'test-operator-token';
let dir: TempDir | undefined;
let live: RunningLive | undefined;

afterEach(async () => {
  await live?.stop();
  dir?.remove();
  live = undefined;
  dir = undefined;
});

async function start(rulesetId: string | undefined): Promise<RunningLive> {
  dir = tempDir();
  live = await startLive({
    source: { mode: 'demo', demoSource: 'truth', fps: 20, speed: 4 },
    dataDir: dir.path,
    host: '127.0.0.1',
    port: 0,
    operatorToken: TOKEN,
    ...(rulesetId !== undefined ? { rulesetId } : {}),
  });
  return live;
}

async function drawCard(url: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${url}/api/actions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
    body: JSON.stringify({ type: 'draw-card' }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('the action deck follows --ruleset', () => {
  it('draws a Devil to Pay card with the rule set named explicitly', async () => {
    const { url } = await start('devil-to-pay');
    const drawn = await drawCard(url);
    expect(drawn.status, JSON.stringify(drawn.body)).toBe(200);
    expect(JSON.stringify(drawn.body)).toMatch(/"kind":"(move|fire|charge|rally|whiskey|carpe-diem)/i);
  });

  it('has no deck to draw from when the rule set is not installed', async () => {
    const { url } = await start('no-such-rules');
    const drawn = await drawCard(url);
    expect(drawn.status).not.toBe(200);
    expect(JSON.stringify(drawn.body)).toMatch(/no action deck/);
  });
});
