/**
 * A ServiceBackend (the server's port, apps/server/src/http/backend.ts) over a fixed scene, for the
 * end-to-end tests: the real server and ws hub run unchanged; the state is whatever the test publishes.
 * Operator actions change the state the way the service would (status, terrain, tags) and dice come from
 * the rules' seeded roller.
 */
import type { DiceRoll as WireDiceRoll, GameLogEntry, LiveState, OperatorMessage } from '@muster/protocol';
import type { UnitStatus } from '@muster/rules';
import { ActionError, type ActionResult, type BackendEvent, type ServiceBackend } from '../../../apps/server/src/http/backend.ts';
import { createRng, rollDice } from '@muster/rules';

export class SceneBackend implements ServiceBackend {
  private current: LiveState;
  private readonly entries: GameLogEntry[] = [];
  private readonly listeners = new Set<(e: BackendEvent) => void>();
  private readonly rng = createRng(20261122);
  readonly performed: OperatorMessage[] = [];

  constructor(initial: LiveState) {
    this.current = initial;
  }

  state(): LiveState {
    return this.current;
  }

  /** Publishes the next state: `change` gets the current one and returns the new one (seq is set here). */
  publish(change: (s: LiveState) => Omit<LiveState, 'seq'>): LiveState {
    this.current = { ...change(this.current), seq: this.current.seq + 1, captureTimeMs: Date.now() };
    for (const l of this.listeners) l({ kind: 'state' });
    return this.current;
  }

  recentLog(): readonly GameLogEntry[] {
    return this.entries.slice(-50);
  }
  log(fromIndex: number, limit: number): readonly GameLogEntry[] {
    return this.entries.slice(fromIndex, fromIndex + limit);
  }
  roster(): unknown {
    return this.current.roster;
  }
  tableProfile(): unknown {
    return this.current.profile;
  }
  calibration(): unknown {
    return null;
  }

  perform(action: OperatorMessage): ActionResult {
    this.performed.push(action);
    switch (action.type) {
      case 'set-unit-status': {
        const unit = this.current.tableState.units.find((u) => u.id === action.unitId);
        if (!unit) throw new ActionError('not-found', `no unit ${action.unitId}`);
        const status: Record<string, unknown> = { ...(unit.status ?? {}) };
        for (const [k, v] of Object.entries(action.status)) {
          if (v === null) delete status[k];
          else status[k] = v;
        }
        this.publish((s) => ({
          ...s,
          tableState: { ...s.tableState, units: s.tableState.units.map((u) => (u.id === unit.id ? { ...u, status: status as UnitStatus } : u)) },
        }));
        this.append({ kind: 'unit-status', unitId: unit.id, status: status as UnitStatus });
        return undefined;
      }
      case 'set-terrain':
        this.publish((s) => ({ ...s, tableState: { ...s.tableState, terrain: action.terrain } }));
        this.append({ kind: 'terrain', terrain: action.terrain });
        return undefined;
      case 'roll-dice': {
        const r = rollDice(this.rng, action.dice);
        const roll: WireDiceRoll = { faces: r.faces, hits: r.hits, hitOn: 4, ...(action.reason ? { reason: action.reason } : {}), ...(action.unitId ? { unitId: action.unitId } : {}) };
        this.append({ kind: 'dice', roll });
        return { roll };
      }
      case 'draw-card': {
        const draw = { card: { kind: 'fire' as const, first: 'union' as const }, remaining: 13, turnEnded: false, turn: this.current.turn };
        this.append({ kind: 'card', draw });
        return { draw };
      }
      case 'assign-tag':
        return undefined;
      case 'set-turn':
        this.publish((s) => ({ ...s, turn: action.turn }));
        this.append({ kind: 'turn', turn: action.turn });
        return { turn: action.turn };
    }
  }

  subscribe(listener: (event: BackendEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private append(entry: Record<string, unknown>): void {
    const full = { ...entry, index: this.entries.length, timeMs: Date.now(), turn: this.current.turn, by: 'operator' } as GameLogEntry;
    this.entries.push(full);
    for (const l of this.listeners) l({ kind: 'log', entry: full });
  }
}
