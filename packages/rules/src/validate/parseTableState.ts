/**
 * Checks that unknown JSON is a table state: the shape (types, finite numbers, enums, no unknown fields),
 * unique ids, and references between parts (unit → stands, stand → unit or commander, commander →
 * brigade, stand and attached unit). Every problem is collected with its path, then thrown together.
 * The published JSON Schema (`schema/table-state.schema.json`) describes the same shape; only the
 * reference checks go beyond it.
 */
import type { TableState } from '../model/tableState.ts';
import { TABLE_STATE_VERSION, isRankAboveBrigade } from '../model/tableState.ts';
import { TableStateError, type TableStateProblem } from './tableStateError.ts';
import { TABLE_STATE_ENUMS, UNIT_STATUS_FIELDS } from '../model/enums.ts';
import type { Ruleset } from '../engine/ruleset.ts';
import { rulesetStateProblems } from '../engine/rulesetFields.ts';

export { TABLE_STATE_ENUMS } from '../model/enums.ts';

type Json = Record<string, unknown>;

class Checker {
  readonly problems: TableStateProblem[] = [];

  add(path: string, message: string): void {
    this.problems.push({ path, message });
  }

  /** An object with only the listed keys; returns it, or undefined after recording a problem. */
  object(value: unknown, path: string, required: readonly string[], optional: readonly string[] = []): Json | undefined {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      this.add(path, `expected an object, got ${describe(value)}`);
      return undefined;
    }
    const obj = value as Json;
    for (const key of required) {
      if (!(key in obj) || obj[key] === undefined) this.add(join(path, key), 'missing (required)');
    }
    for (const key of Object.keys(obj)) {
      if (!required.includes(key) && !optional.includes(key)) {
        this.add(join(path, key), `unknown field (allowed: ${[...required, ...optional].join(', ')})`);
      }
    }
    return obj;
  }

  array(value: unknown, path: string, minItems = 0): unknown[] | undefined {
    if (!Array.isArray(value)) {
      this.add(path, `expected an array, got ${describe(value)}`);
      return undefined;
    }
    if (value.length < minItems) this.add(path, `expected at least ${minItems} item${minItems === 1 ? '' : 's'}, got ${value.length}`);
    return value;
  }

  string(value: unknown, path: string): string | undefined {
    if (typeof value !== 'string' || value.length === 0) {
      this.add(path, `expected a non-empty string, got ${describe(value)}`);
      return undefined;
    }
    return value;
  }

  boolean(value: unknown, path: string): void {
    if (typeof value !== 'boolean') this.add(path, `expected true or false, got ${describe(value)}`);
  }

  /** A finite number, optionally with bounds (exclusive minimum when `above`). */
  number(value: unknown, path: string, opts: { above?: number; min?: number; integer?: boolean; unit?: string } = {}): number | undefined {
    const unit = opts.unit ? ` ${opts.unit}` : '';
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      this.add(path, `expected a finite number${unit}, got ${describe(value)}`);
      return undefined;
    }
    if (opts.integer && !Number.isInteger(value)) this.add(path, `expected a whole number, got ${value}`);
    if (opts.above !== undefined && !(value > opts.above)) this.add(path, `expected a number above ${opts.above}${unit}, got ${value}`);
    if (opts.min !== undefined && value < opts.min) this.add(path, `expected at least ${opts.min}${unit}, got ${value}`);
    return value;
  }

  /**
   * A rule set's own values (`RulesetValues`): ids and plain values only; which ids and values are allowed
   * is the rule set's business (`rulesetStateProblems`).
   */
  rulesetValues(value: unknown, path: string): void {
    const o = this.object(value, path, [], Object.keys((value as Json | null) ?? {}));
    if (!o) return;
    const keys = Object.keys(o);
    if (keys.length > 64) this.add(path, `at most 64 values, got ${keys.length}`);
    for (const key of keys) {
      const p = join(path, key);
      if (!/^[A-Za-z][A-Za-z0-9-]*$/.test(key)) this.add(p, 'expected an id of letters, digits and dashes, starting with a letter');
      const v = o[key];
      if (typeof v === 'number') this.number(v, p);
      else if (typeof v === 'string') this.string(v, p);
      else if (Array.isArray(v)) {
        if (v.length > 64) this.add(p, `at most 64 items, got ${v.length}`);
        v.forEach((item, i) => this.string(item, `${p}[${i}]`));
      } else if (typeof v !== 'boolean') this.add(p, `expected a number, text, true/false or a list of text, got ${describe(v)}`);
    }
  }

  oneOf(value: unknown, path: string, allowed: readonly string[]): void {
    if (typeof value !== 'string' || !allowed.includes(value)) {
      this.add(path, `expected one of ${allowed.join(', ')}, got ${describe(value)}`);
    }
  }

  point(value: unknown, path: string): void {
    const o = this.object(value, path, ['xIn', 'yIn']);
    if (!o) return;
    if ('xIn' in o) this.number(o.xIn, `${path}.xIn`, { unit: 'inches' });
    if ('yIn' in o) this.number(o.yIn, `${path}.yIn`, { unit: 'inches' });
  }

  points(value: unknown, path: string, minItems: number): void {
    const arr = this.array(value, path, minItems);
    arr?.forEach((p, i) => this.point(p, `${path}[${i}]`));
  }

  /** Records `id` in `seen`; reports a duplicate with where it was first used. */
  uniqueId(id: string | undefined, path: string, seen: Map<string, string>, what: string): void {
    if (id === undefined) return;
    const first = seen.get(id);
    if (first !== undefined) this.add(`${path}.id`, `duplicate ${what} id "${id}" (first used at ${first})`);
    else seen.set(id, path);
  }
}

function join(path: string, key: string): string {
  return path ? `${path}.${key}` : key;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 37)}...` : value);
  if (typeof value === 'number') return Number.isNaN(value) ? 'NaN' : String(value);
  return typeof value === 'object' ? 'an object' : `${typeof value} ${String(value)}`;
}

function str(o: Json | undefined, key: string): string | undefined {
  const v = o?.[key];
  return typeof v === 'string' && v.length > 0 ? v : undefined;
}

/** Every problem found in `json` as a table state; an empty list means it is valid. */
export function tableStateProblems(json: unknown): TableStateProblem[] {
  const c = new Checker();
  // `$schema` lets editors find the published schema; it is allowed and otherwise ignored.
  const root = c.object(json, '', ['version', 'table', 'stands', 'units', 'commanders', 'terrain'], ['$schema', 'optionalRules', 'rulesetParameters']);
  if (!root) return c.problems;
  if (root.$schema !== undefined) c.string(root.$schema, '$schema');
  if (root.optionalRules !== undefined) {
    const rules = c.array(root.optionalRules, 'optionalRules');
    const seen = new Set<unknown>();
    rules?.forEach((r, i) => {
      c.oneOf(r, `optionalRules[${i}]`, TABLE_STATE_ENUMS.optionalRule);
      if (seen.has(r)) c.add(`optionalRules[${i}]`, `"${String(r)}" is listed twice`);
      seen.add(r);
    });
  }

  if (root.rulesetParameters !== undefined) c.rulesetValues(root.rulesetParameters, 'rulesetParameters');

  if ('version' in root && root.version !== TABLE_STATE_VERSION) {
    c.add('version', `expected ${TABLE_STATE_VERSION} (this program reads table state version ${TABLE_STATE_VERSION}), got ${describe(root.version)}`);
  }
  const table = 'table' in root ? c.object(root.table, 'table', ['widthIn', 'depthIn']) : undefined;
  if (table) {
    if ('widthIn' in table) c.number(table.widthIn, 'table.widthIn', { above: 0, unit: 'inches' });
    if ('depthIn' in table) c.number(table.depthIn, 'table.depthIn', { above: 0, unit: 'inches' });
  }

  // Stands: shape and ids.
  const standIds = new Map<string, string>();
  const stands: (Json | undefined)[] = [];
  const standArr = 'stands' in root ? c.array(root.stands, 'stands') : undefined;
  standArr?.forEach((raw, i) => {
    const path = `stands[${i}]`;
    const s = c.object(raw, path, ['id', 'unitId', 'pose', 'widthIn', 'depthIn', 'role']);
    stands.push(s);
    if (!s) return;
    const id = 'id' in s ? c.string(s.id, `${path}.id`) : undefined;
    c.uniqueId(id, path, standIds, 'stand');
    if ('unitId' in s) c.string(s.unitId, `${path}.unitId`);
    if ('widthIn' in s) c.number(s.widthIn, `${path}.widthIn`, { above: 0, unit: 'inches' });
    if ('depthIn' in s) c.number(s.depthIn, `${path}.depthIn`, { above: 0, unit: 'inches' });
    if ('role' in s) c.oneOf(s.role, `${path}.role`, TABLE_STATE_ENUMS.standRole);
    const pose = 'pose' in s ? c.object(s.pose, `${path}.pose`, ['xIn', 'yIn', 'headingDeg']) : undefined;
    if (pose) {
      if ('xIn' in pose) c.number(pose.xIn, `${path}.pose.xIn`, { unit: 'inches' });
      if ('yIn' in pose) c.number(pose.yIn, `${path}.pose.yIn`, { unit: 'inches' });
      if ('headingDeg' in pose) {
        const h = c.number(pose.headingDeg, `${path}.pose.headingDeg`, { unit: 'degrees' });
        if (h !== undefined && (h < 0 || h >= 360)) {
          const n = ((h % 360) + 360) % 360;
          c.add(`${path}.pose.headingDeg`, `expected a heading in [0, 360) degrees, got ${h} (write ${Number(n.toFixed(6))})`);
        }
      }
    }
  });

  // Units and commanders share one id space: a stand's unitId may name either.
  const ownerIds = new Map<string, string>();
  const units: (Json | undefined)[] = [];
  const unitArr = 'units' in root ? c.array(root.units, 'units') : undefined;
  unitArr?.forEach((raw, i) => {
    const path = `units[${i}]`;
    const u = c.object(
      raw,
      path,
      ['id', 'name', 'side', 'arm', 'quality', 'weapon', 'standIds'],
      ['brigadeId', 'independent', 'horseArtillery', 'sharpshooters', 'startingStands', 'rulesetFields', 'status'],
    );
    units.push(u);
    if (!u) return;
    const id = 'id' in u ? c.string(u.id, `${path}.id`) : undefined;
    c.uniqueId(id, path, ownerIds, 'unit or commander');
    for (const key of ['name', 'side', 'weapon'] as const) if (key in u) c.string(u[key], `${path}.${key}`);
    if ('arm' in u) c.oneOf(u.arm, `${path}.arm`, TABLE_STATE_ENUMS.arm);
    if ('quality' in u) c.oneOf(u.quality, `${path}.quality`, TABLE_STATE_ENUMS.quality);
    if (u.brigadeId !== undefined) c.string(u.brigadeId, `${path}.brigadeId`);
    if (u.independent !== undefined) c.boolean(u.independent, `${path}.independent`);
    if (u.horseArtillery !== undefined) c.boolean(u.horseArtillery, `${path}.horseArtillery`);
    if (u.sharpshooters !== undefined) c.boolean(u.sharpshooters, `${path}.sharpshooters`);
    if (u.rulesetFields !== undefined) c.rulesetValues(u.rulesetFields, `${path}.rulesetFields`);
    if (u.startingStands !== undefined) c.number(u.startingStands, `${path}.startingStands`, { min: 1, integer: true });
    // Empty for a unit with no stand on the table (see Unit.standIds).
    const ids = 'standIds' in u ? c.array(u.standIds, `${path}.standIds`) : undefined;
    ids?.forEach((sid, k) => c.string(sid, `${path}.standIds[${k}]`));
    if (u.status !== undefined) {
      const st = c.object(u.status, `${path}.status`, [], UNIT_STATUS_FIELDS);
      if (st) {
        for (const key of ['disordered', 'prone', 'dismounted', 'limbered'] as const) {
          if (st[key] !== undefined) c.boolean(st[key], `${path}.status.${key}`);
        }
        if (st.ordersLeft !== undefined) c.number(st.ordersLeft, `${path}.status.ordersLeft`, { min: 0, integer: true });
        if (st.attachedCommanderId !== undefined) c.string(st.attachedCommanderId, `${path}.status.attachedCommanderId`);
        if (st.formation !== undefined) c.oneOf(st.formation, `${path}.status.formation`, TABLE_STATE_ENUMS.formation);
        if (st.rulesetStatus !== undefined) c.rulesetValues(st.rulesetStatus, `${path}.status.rulesetStatus`);
        if (st.hitsByStand !== undefined) {
          const hits = c.object(st.hitsByStand, `${path}.status.hitsByStand`, [], Object.keys(st.hitsByStand ?? {}));
          if (hits) {
            for (const [sid, n] of Object.entries(hits)) {
              c.number(n, `${path}.status.hitsByStand.${sid}`, { min: 0, integer: true });
            }
          }
        }
      }
    }
  });

  const commanders: (Json | undefined)[] = [];
  const cmdArr = 'commanders' in root ? c.array(root.commanders, 'commanders') : undefined;
  cmdArr?.forEach((raw, i) => {
    const path = `commanders[${i}]`;
    const m = c.object(raw, path, ['id', 'name', 'side', 'brigadeId', 'quality'], ['standId', 'attachedToUnitId', 'cavalry']);
    commanders.push(m);
    if (!m) return;
    const id = 'id' in m ? c.string(m.id, `${path}.id`) : undefined;
    c.uniqueId(id, path, ownerIds, 'unit or commander');
    for (const key of ['name', 'side', 'brigadeId'] as const) if (key in m) c.string(m[key], `${path}.${key}`);
    if ('quality' in m) c.oneOf(m.quality, `${path}.quality`, TABLE_STATE_ENUMS.commanderQuality);
    if (m.standId !== undefined) c.string(m.standId, `${path}.standId`);
    if (m.attachedToUnitId !== undefined) c.string(m.attachedToUnitId, `${path}.attachedToUnitId`);
    if (m.cavalry !== undefined) c.boolean(m.cavalry, `${path}.cavalry`);
  });

  checkTerrain(c, root);
  if (c.problems.length > 0) return c.problems; // references only make sense on a well-formed state
  checkReferences(c, stands as Json[], units as Json[], commanders as Json[]);
  return c.problems;
}

function checkTerrain(c: Checker, root: Json): void {
  if (!('terrain' in root)) return;
  const t = c.object(root.terrain, 'terrain', ['areas', 'linear', 'roads', 'elevations']);
  if (!t) return;
  const ids = new Map<string, string>();
  const each = (key: string, required: string[], optional: string[], check: (o: Json, path: string) => void): void => {
    if (!(key in t)) return;
    c.array(t[key], `terrain.${key}`)?.forEach((raw, i) => {
      const path = `terrain.${key}[${i}]`;
      const o = c.object(raw, path, required, optional);
      if (!o) return;
      c.uniqueId('id' in o ? c.string(o.id, `${path}.id`) : undefined, path, ids, 'terrain');
      check(o, path);
    });
  };
  each('areas', ['id', 'kind', 'vertices'], [], (o, path) => {
    if ('kind' in o) c.oneOf(o.kind, `${path}.kind`, TABLE_STATE_ENUMS.areaKind);
    if ('vertices' in o) c.points(o.vertices, `${path}.vertices`, 3);
  });
  each('linear', ['id', 'kind', 'points'], [], (o, path) => {
    if ('kind' in o) c.oneOf(o.kind, `${path}.kind`, TABLE_STATE_ENUMS.linearKind);
    if ('points' in o) c.points(o.points, `${path}.points`, 2);
  });
  each('roads', ['id', 'points'], ['widthIn'], (o, path) => {
    if ('points' in o) c.points(o.points, `${path}.points`, 2);
    if (o.widthIn !== undefined) c.number(o.widthIn, `${path}.widthIn`, { above: 0, unit: 'inches' });
  });
  each('elevations', ['id', 'vertices', 'level'], [], (o, path) => {
    if ('vertices' in o) c.points(o.vertices, `${path}.vertices`, 3);
    if ('level' in o) c.number(o.level, `${path}.level`, { min: 1, integer: true });
  });
}

function checkReferences(c: Checker, stands: Json[], units: Json[], commanders: Json[]): void {
  const standById = new Map<string, { s: Json; i: number }>();
  stands.forEach((s, i) => standById.set(s.id as string, { s, i }));
  const unitById = new Map<string, { u: Json; i: number }>();
  units.forEach((u, i) => unitById.set(u.id as string, { u, i }));
  const cmdById = new Map<string, { m: Json; i: number }>();
  commanders.forEach((m, i) => cmdById.set(m.id as string, { m, i }));
  const ownerIdList = (): string => {
    const all = [...unitById.keys(), ...cmdById.keys()];
    return all.length > 8 ? `${all.slice(0, 8).join(', ')}, ...` : all.join(', ') || 'none';
  };

  // unit → stands: each listed stand exists, names this unit back, and is listed once in all units.
  const listedBy = new Map<string, string>();
  units.forEach((u, i) => {
    (u.standIds as string[]).forEach((sid, k) => {
      const path = `units[${i}].standIds[${k}]`;
      const hit = standById.get(sid);
      if (!hit) {
        c.add(path, `unknown stand "${sid}"`);
        return;
      }
      const prev = listedBy.get(sid);
      if (prev !== undefined) {
        c.add(path, `stand "${sid}" is already listed at ${prev}; a stand belongs to exactly one unit`);
        return;
      }
      listedBy.set(sid, path);
      if (hit.s.unitId !== u.id) {
        c.add(path, `stand "${sid}" says it belongs to "${String(hit.s.unitId)}" (stands[${hit.i}].unitId), not "${String(u.id)}"`);
      }
    });
    const status = u.status as Json | undefined;
    if (status?.hitsByStand) {
      for (const sid of Object.keys(status.hitsByStand as Json)) {
        if (!(u.standIds as string[]).includes(sid)) {
          c.add(`units[${i}].status.hitsByStand.${sid}`, `stand "${sid}" is not one of this unit's standIds`);
        }
      }
    }
    const attached = str(status, 'attachedCommanderId');
    if (attached !== undefined) {
      const cmd = cmdById.get(attached);
      if (!cmd) c.add(`units[${i}].status.attachedCommanderId`, `unknown commander "${attached}"`);
      else if (cmd.m.side !== u.side) {
        c.add(`units[${i}].status.attachedCommanderId`, `commander "${attached}" is on side "${String(cmd.m.side)}", unit is on "${String(u.side)}"`);
      }
    }
  });

  // stand → unit or commander.
  stands.forEach((s, i) => {
    const owner = s.unitId as string;
    const path = `stands[${i}].unitId`;
    if (unitById.has(owner)) {
      if (!listedBy.has(s.id as string)) c.add(path, `stand "${String(s.id)}" names unit "${owner}" but that unit's standIds do not list it`);
      if (s.role === 'commander') c.add(`stands[${i}].role`, `a unit's stand cannot have role "commander" (that is for a commander's own stand)`);
      return;
    }
    const cmd = cmdById.get(owner);
    if (cmd) {
      if (s.role !== 'commander') c.add(`stands[${i}].role`, `commander "${owner}"'s own stand must have role "commander", got "${String(s.role)}"`);
      if (cmd.m.standId !== s.id) {
        c.add(path, `stand "${String(s.id)}" names commander "${owner}" but commanders[${cmd.i}].standId is ${describe(cmd.m.standId)}`);
      }
      return;
    }
    c.add(path, `unknown unit or commander "${owner}" (known: ${ownerIdList()})`);
  });

  // commander → brigade, stand, attached unit.
  const brigades = new Map<string, Set<string>>();
  for (const u of units) {
    const b = str(u, 'brigadeId');
    if (b === undefined) continue;
    let sides = brigades.get(b);
    if (!sides) brigades.set(b, (sides = new Set()));
    sides.add(u.side as string);
  }
  commanders.forEach((m, i) => {
    const path = `commanders[${i}]`;
    const b = m.brigadeId as string;
    const sides = brigades.get(b);
    // An army or wing commander leads no brigade of his own (ARMY_COMMANDER_BRIGADE): his units are his
    // side's, or his wing's as the rule set reads it, so there is no brigade to look up.
    const aboveBrigade = typeof b === 'string' && isRankAboveBrigade(b);
    if (!sides && !aboveBrigade) {
      const known = [...brigades.keys()];
      c.add(`${path}.brigadeId`, `no unit has brigadeId "${b}" (known brigades: ${known.join(', ') || 'none'}; "army" or "wing-<name>" for a commander above brigades)`);
    } else if (sides && !sides.has(m.side as string)) {
      c.add(`${path}.brigadeId`, `brigade "${b}" has no units on side "${String(m.side)}"`);
    }
    const sid = str(m, 'standId');
    if (sid !== undefined) {
      const hit = standById.get(sid);
      if (!hit) c.add(`${path}.standId`, `unknown stand "${sid}"`);
      else if (hit.s.unitId !== m.id) {
        c.add(`${path}.standId`, `stand "${sid}" belongs to "${String(hit.s.unitId)}" (stands[${hit.i}].unitId), not to this commander`);
      }
    }
    const att = str(m, 'attachedToUnitId');
    if (att !== undefined) {
      const hit = unitById.get(att);
      if (!hit) c.add(`${path}.attachedToUnitId`, `unknown unit "${att}"`);
      else if (hit.u.side !== m.side) {
        c.add(`${path}.attachedToUnitId`, `unit "${att}" is on side "${String(hit.u.side)}", commander is on "${String(m.side)}"`);
      }
    }
  });
}

/**
 * Parse unknown JSON (e.g. `JSON.parse` of a file) as a table state. Returns it typed when valid;
 * otherwise throws a `TableStateError` listing every problem with its path, e.g.
 * `units[3].standIds[1]: unknown stand "s99"`. The input is not modified.
 */
export function parseTableState(json: unknown): TableState {
  const problems = tableStateProblems(json);
  if (problems.length > 0) throw new TableStateError(problems);
  return json as TableState;
}

/**
 * `parseTableState`, then the rule set's own checks (`rulesetStateProblems`): unknown or bad
 * `rulesetParameters`, unit `rulesetFields` and `status.rulesetStatus`. Throws a `TableStateError` listing
 * every problem. Use it wherever a state enters for a known rule set (CLI, service).
 */
export function parseTableStateFor(json: unknown, ruleset: Ruleset): TableState {
  const state = parseTableState(json);
  const problems = rulesetStateProblems(state, ruleset);
  if (problems.length > 0) throw new TableStateError(problems);
  return state;
}

/** Like `parseTableState` but returns a result instead of throwing. */
export function validateTableState(
  json: unknown,
): { readonly ok: true; readonly state: TableState } | { readonly ok: false; readonly problems: readonly TableStateProblem[] } {
  const problems = tableStateProblems(json);
  return problems.length > 0 ? { ok: false, problems } : { ok: true, state: json as TableState };
}
