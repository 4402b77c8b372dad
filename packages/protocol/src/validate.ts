/**
 * Runtime validation of everything that crosses the wire. Hand-written (no dependency), runs in Node and
 * in the browser. Client messages are checked strictly: unknown fields, wrong types, out-of-range numbers
 * and oversized input are refused with a message naming the offending path. Server messages get a
 * structural check (type and the fields a view relies on to apply them).
 */
import type { PointIn, Terrain } from '@muster/rules';
import { TABLE_STATE_ENUMS, UNIT_STATUS_FIELDS } from '@muster/rules/enums';
import type { DiceFaces, PendingAction } from '@muster/rules';
import type { ClientMessage, ErrorCode, MeasureEnd, RulesetSummary, ServerMessage, SharedMeasure, UnitStatusPatch } from './messages.ts';
import { LIMITS, PROTOCOL_VERSION } from './version.ts';

export type Parsed<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly code: ErrorCode; readonly message: string; readonly requestId?: string };

class Invalid extends Error {}

const AREA_KINDS = TABLE_STATE_ENUMS.areaKind;
const LINEAR_KINDS = TABLE_STATE_ENUMS.linearKind;
const FORMATIONS = TABLE_STATE_ENUMS.formation;

function fail(path: string, what: string): never {
  throw new Invalid(`${path}: ${what}`);
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return typeof v === 'string' ? 'a string' : typeof v;
}

function obj(v: unknown, path: string, allowed: readonly string[]): Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) fail(path, `expected an object, got ${describe(v)}`);
  const rec = v as Record<string, unknown>;
  for (const key of Object.keys(rec)) {
    if (!allowed.includes(key)) fail(path, `unknown field "${key.slice(0, 40)}"`);
  }
  return rec;
}

function arr(v: unknown, path: string, maxLen: number): unknown[] {
  if (!Array.isArray(v)) fail(path, `expected an array, got ${describe(v)}`);
  if (v.length > maxLen) fail(path, `at most ${maxLen} entries, got ${v.length}`);
  return v;
}

function str(v: unknown, path: string, maxChars: number = LIMITS.maxTextChars): string {
  if (typeof v !== 'string') fail(path, `expected a string, got ${describe(v)}`);
  if (v.length > maxChars) fail(path, `at most ${maxChars} characters, got ${v.length}`);
  return v;
}

function id(v: unknown, path: string): string {
  const s = str(v, path, LIMITS.maxIdChars);
  if (s.length === 0) fail(path, 'must not be empty');
  return s;
}

function int(v: unknown, path: string, min: number, max: number): number {
  if (typeof v !== 'number' || !Number.isInteger(v)) fail(path, `expected an integer, got ${describe(v)}`);
  if (v < min || v > max) fail(path, `must be in ${min}..${max}, got ${v}`);
  return v;
}

function num(v: unknown, path: string, min: number, max: number): number {
  if (typeof v !== 'number' || !Number.isFinite(v)) fail(path, `expected a finite number, got ${describe(v)}`);
  if (v < min || v > max) fail(path, `must be in ${min}..${max}, got ${v}`);
  return v;
}

function bool(v: unknown, path: string): boolean {
  if (typeof v !== 'boolean') fail(path, `expected true or false, got ${describe(v)}`);
  return v;
}

function oneOf<T extends string>(v: unknown, path: string, options: readonly T[]): T {
  if (typeof v !== 'string' || !(options as readonly string[]).includes(v)) {
    fail(path, `expected one of ${options.join(', ')}`);
  }
  return v as T;
}

function coord(v: unknown, path: string): number {
  return num(v, path, -LIMITS.maxCoordinateIn, LIMITS.maxCoordinateIn);
}

function point(v: unknown, path: string): PointIn {
  const o = obj(v, path, ['xIn', 'yIn']);
  return { xIn: coord(o.xIn, `${path}.xIn`), yIn: coord(o.yIn, `${path}.yIn`) };
}

function points(v: unknown, path: string, minLen: number): PointIn[] {
  const list = arr(v, path, LIMITS.maxPointsPerPiece);
  if (list.length < minLen) fail(path, `at least ${minLen} points, got ${list.length}`);
  return list.map((p, i) => point(p, `${path}[${i}]`));
}

function uniqueIds(list: readonly { id: string }[], path: string): void {
  const seen = new Set<string>();
  for (const item of list) {
    if (seen.has(item.id)) fail(path, `duplicate id "${item.id}"`);
    seen.add(item.id);
  }
}

/** Checks a terrain description (shape, kinds, coordinates, limits). Throws nothing: returns an error or null. */
export function validateTerrain(value: unknown, path = 'terrain'): { ok: true; value: Terrain } | { ok: false; message: string } {
  try {
    return { ok: true, value: readTerrain(value, path) };
  } catch (err) {
    if (err instanceof Invalid) return { ok: false, message: err.message };
    throw err;
  }
}

function readTerrain(v: unknown, path: string): Terrain {
  const o = obj(v, path, ['areas', 'linear', 'roads', 'elevations']);
  const max = LIMITS.maxTerrainPieces;
  const areas = arr(o.areas, `${path}.areas`, max).map((a, i) => {
    const p = `${path}.areas[${i}]`;
    const r = obj(a, p, ['id', 'kind', 'vertices']);
    return { id: id(r.id, `${p}.id`), kind: oneOf(r.kind, `${p}.kind`, AREA_KINDS), vertices: points(r.vertices, `${p}.vertices`, 3) };
  });
  const linear = arr(o.linear, `${path}.linear`, max).map((a, i) => {
    const p = `${path}.linear[${i}]`;
    const r = obj(a, p, ['id', 'kind', 'points']);
    return { id: id(r.id, `${p}.id`), kind: oneOf(r.kind, `${p}.kind`, LINEAR_KINDS), points: points(r.points, `${p}.points`, 2) };
  });
  const roads = arr(o.roads, `${path}.roads`, max).map((a, i) => {
    const p = `${path}.roads[${i}]`;
    const r = obj(a, p, ['id', 'points', 'widthIn']);
    const road = { id: id(r.id, `${p}.id`), points: points(r.points, `${p}.points`, 2) };
    return r.widthIn === undefined ? road : { ...road, widthIn: num(r.widthIn, `${p}.widthIn`, 0.1, 24) };
  });
  const elevations = arr(o.elevations, `${path}.elevations`, max).map((a, i) => {
    const p = `${path}.elevations[${i}]`;
    const r = obj(a, p, ['id', 'vertices', 'level']);
    return { id: id(r.id, `${p}.id`), vertices: points(r.vertices, `${p}.vertices`, 3), level: int(r.level, `${p}.level`, 1, 20) };
  });
  uniqueIds([...areas, ...linear, ...roads, ...elevations], path);
  return { areas, linear, roads, elevations };
}

const STATUS_FIELDS = UNIT_STATUS_FIELDS;

function readStatusPatch(v: unknown, path: string): UnitStatusPatch {
  const o = obj(v, path, STATUS_FIELDS);
  const out: Record<string, unknown> = {};
  for (const key of STATUS_FIELDS) {
    const value = o[key];
    const p = `${path}.${key}`;
    if (value === undefined) continue;
    if (value === null) {
      out[key] = null;
      continue;
    }
    switch (key) {
      case 'hitsByStand': {
        const rec = obj(value, p, Object.keys(value as object));
        const keys = Object.keys(rec);
        if (keys.length > 64) fail(p, `at most 64 stands, got ${keys.length}`);
        const hits: Record<string, number> = {};
        for (const standId of keys) hits[id(standId, `${p} key`)] = int(rec[standId], `${p}.${standId}`, 0, 2);
        out[key] = hits;
        break;
      }
      case 'ordersLeft':
        out[key] = int(value, p, 0, 10);
        break;
      case 'attachedCommanderId':
        out[key] = id(value, p);
        break;
      case 'formation':
        out[key] = oneOf(value, p, FORMATIONS);
        break;
      case 'rulesetStatus':
        // Shape only here; the rule set checks ids and values (parseTableStateFor) before it is applied.
        out[key] = rulesetValues(value, p);
        break;
      default:
        out[key] = bool(value, p);
    }
  }
  return out as UnitStatusPatch;
}

function rulesetValues(v: unknown, path: string): Record<string, number | string | boolean | string[]> {
  const o = obj(v, path, Object.keys((v as object | null) ?? {}));
  const keys = Object.keys(o);
  if (keys.length > 64) fail(path, `at most 64 values, got ${keys.length}`);
  const out: Record<string, number | string | boolean | string[]> = {};
  for (const key of keys) {
    const p = `${path}.${key}`;
    if (!/^[A-Za-z][A-Za-z0-9-]*$/.test(key)) fail(p, 'expected an id of letters, digits and dashes, starting with a letter');
    const value = o[key];
    if (typeof value === 'boolean') out[key] = value;
    else if (typeof value === 'number') out[key] = num(value, p, -1e9, 1e9);
    else if (typeof value === 'string') out[key] = str(value, p);
    else if (Array.isArray(value) && value.length <= 64) out[key] = value.map((item, i) => str(item, `${p}[${i}]`));
    else fail(p, `expected a number, text, true/false or a list of at most 64 texts, got ${describe(value)}`);
  }
  return out;
}

/** A rule-set id: lower-case letters, digits and dashes, starting with a letter or digit (e.g. 'devil-to-pay'). */
const RULESET_ID = /^[a-z0-9][a-z0-9-]*$/;

function rulesetId(v: unknown, path: string): string {
  const s = str(v, path, LIMITS.maxRulesetIdChars);
  if (!RULESET_ID.test(s)) fail(path, 'expected a rule-set id of lower-case letters, digits and dashes (e.g. "devil-to-pay")');
  return s;
}

function measureEnd(v: unknown, path: string): MeasureEnd {
  const o = obj(v, path, ['xIn', 'yIn', 'standId', 'ghost']);
  if (o.standId === undefined) fail(`${path}.standId`, 'required (a stand id, or null for a free point)');
  const end = { xIn: coord(o.xIn, `${path}.xIn`), yIn: coord(o.yIn, `${path}.yIn`), standId: o.standId === null ? null : id(o.standId, `${path}.standId`) };
  if (o.ghost === undefined) return end;
  if (end.standId === null) fail(`${path}.ghost`, 'only with a standId');
  return { ...end, ghost: bool(o.ghost, `${path}.ghost`) };
}

function sharedMeasure(v: unknown, path: string): SharedMeasure | null {
  if (v === null) return null;
  const o = obj(v, path, ['from', 'to']);
  return { from: measureEnd(o.from, `${path}.from`), to: measureEnd(o.to, `${path}.to`) };
}

/** Units one resolution request may name on a side (a joint charge, supports). */
const MAX_ACTION_UNITS = 64;
/** Dice groups in one resolution (attacker, defender, supports ...). */
const MAX_DICE_GROUPS = 16;
/** Largest face a die may show (the rule set checks the die's own sides). */
const MAX_DIE_FACE = 100;

function idList(v: unknown, path: string): string[] {
  return arr(v, path, MAX_ACTION_UNITS).map((x, i) => id(x, `${path}[${i}]`));
}

/**
 * A pending action's shape (protocol 5): a kind and the units, commander and choices it names. Whether the
 * rule set resolves that kind, and the units are on the table, is the service's check (`resolveAction`).
 */
function pendingAction(v: unknown, path: string): PendingAction {
  const o = obj(v, path, ['kind', 'unitId', 'targetUnitId', 'unitIds', 'targetUnitIds', 'commanderId', 'choices']);
  const kind = str(o.kind, `${path}.kind`, LIMITS.maxIdChars);
  if (!/^[a-z][a-z0-9-]*$/.test(kind)) fail(`${path}.kind`, 'expected an action kind of lower-case letters, digits and dashes (e.g. "fire")');
  return {
    kind,
    ...(o.unitId === undefined ? {} : { unitId: id(o.unitId, `${path}.unitId`) }),
    ...(o.targetUnitId === undefined ? {} : { targetUnitId: id(o.targetUnitId, `${path}.targetUnitId`) }),
    ...(o.unitIds === undefined ? {} : { unitIds: idList(o.unitIds, `${path}.unitIds`) }),
    ...(o.targetUnitIds === undefined ? {} : { targetUnitIds: idList(o.targetUnitIds, `${path}.targetUnitIds`) }),
    ...(o.commanderId === undefined ? {} : { commanderId: id(o.commanderId, `${path}.commanderId`) }),
    ...(o.choices === undefined ? {} : { choices: rulesetValues(o.choices, `${path}.choices`) }),
  };
}

/** Dice faces per group id: `{ attacker: [6, 2], defender: [1] }`, whole numbers from 1. */
function diceFaces(v: unknown, path: string): DiceFaces {
  const o = obj(v, path, Object.keys((v as object | null) ?? {}));
  const keys = Object.keys(o);
  if (keys.length > MAX_DICE_GROUPS) fail(path, `at most ${MAX_DICE_GROUPS} groups of dice, got ${keys.length}`);
  const out: Record<string, number[]> = {};
  for (const key of keys) {
    if (!/^[A-Za-z][A-Za-z0-9-]*$/.test(key)) fail(`${path}.${key.slice(0, 40)}`, 'expected a dice group id of letters, digits and dashes');
    out[key] = arr(o[key], `${path}.${key}`, LIMITS.maxDicePerRoll).map((f, i) => int(f, `${path}.${key}[${i}]`, 1, MAX_DIE_FACE));
  }
  return out;
}

function optionalRequestId(o: Record<string, unknown>): { requestId?: string } {
  return o.requestId === undefined ? {} : { requestId: id(o.requestId, 'requestId') };
}

function readClientMessage(v: unknown): ClientMessage {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) fail('message', `expected an object, got ${describe(v)}`);
  const type = (v as Record<string, unknown>).type;
  if (typeof type !== 'string') fail('type', 'missing or not a string');
  switch (type) {
    case 'hello': {
      const o = obj(v, 'hello', ['type', 'requestId', 'protocolVersion', 'token']);
      const msg = { type, ...optionalRequestId(o), protocolVersion: int(o.protocolVersion, 'protocolVersion', 0, 1_000_000) };
      return o.token === undefined ? msg : { ...msg, token: str(o.token, 'token') };
    }
    case 'ping': {
      const o = obj(v, 'ping', ['type', 'requestId', 'clientTimeMs']);
      const msg = { type, ...optionalRequestId(o) };
      return o.clientTimeMs === undefined ? msg : { ...msg, clientTimeMs: num(o.clientTimeMs, 'clientTimeMs', 0, 1e15) };
    }
    case 'resync': {
      const o = obj(v, 'resync', ['type', 'requestId']);
      return { type, ...optionalRequestId(o) };
    }
    case 'set-unit-status': {
      const o = obj(v, type, ['type', 'requestId', 'unitId', 'status']);
      return { type, ...optionalRequestId(o), unitId: id(o.unitId, 'unitId'), status: readStatusPatch(o.status, 'status') };
    }
    case 'set-terrain': {
      const o = obj(v, type, ['type', 'requestId', 'terrain']);
      const terrain = readTerrain(o.terrain, 'terrain');
      // Checked here, not in validateTerrain: a larger terrain saved by an older build still loads.
      const bytes = utf8Length(JSON.stringify(terrain));
      if (bytes > LIMITS.maxTerrainBytes) fail('terrain', `at most ${LIMITS.maxTerrainBytes} bytes as JSON, got ${bytes} (fewer points per piece)`);
      return { type, ...optionalRequestId(o), terrain };
    }
    case 'assign-tag': {
      const o = obj(v, type, ['type', 'requestId', 'markerId', 'standId']);
      const standId = o.standId === null ? null : id(o.standId, 'standId');
      return { type, ...optionalRequestId(o), markerId: int(o.markerId, 'markerId', 0, LIMITS.maxMarkerId), standId };
    }
    case 'draw-card': {
      const o = obj(v, type, ['type', 'requestId']);
      return { type, ...optionalRequestId(o) };
    }
    case 'roll-dice': {
      const o = obj(v, type, ['type', 'requestId', 'dice', 'hitOn', 'reason', 'unitId']);
      return {
        type,
        ...optionalRequestId(o),
        dice: int(o.dice, 'dice', 1, LIMITS.maxDicePerRoll),
        ...(o.hitOn === undefined ? {} : { hitOn: int(o.hitOn, 'hitOn', 2, 6) }),
        ...(o.reason === undefined ? {} : { reason: str(o.reason, 'reason') }),
        ...(o.unitId === undefined ? {} : { unitId: id(o.unitId, 'unitId') }),
      };
    }
    case 'set-turn': {
      const o = obj(v, type, ['type', 'requestId', 'turn']);
      return { type, ...optionalRequestId(o), turn: int(o.turn, 'turn', 1, 10_000) };
    }
    case 'set-ruleset': {
      const o = obj(v, type, ['type', 'requestId', 'rulesetId']);
      return { type, ...optionalRequestId(o), rulesetId: rulesetId(o.rulesetId, 'rulesetId') };
    }
    case 'set-focus': {
      const o = obj(v, type, ['type', 'requestId', 'unitId', 'measure']);
      if (o.unitId === undefined) fail('unitId', 'required (a unit id, or null for none)');
      if (o.measure === undefined) fail('measure', 'required (a measurement, or null for none)');
      return { type, ...optionalRequestId(o), unitId: o.unitId === null ? null : id(o.unitId, 'unitId'), measure: sharedMeasure(o.measure, 'measure') };
    }
    case 'resolve-offer': {
      const o = obj(v, type, ['type', 'requestId', 'unitId', 'actions']);
      const msg = { type, ...optionalRequestId(o), unitId: id(o.unitId, 'unitId') };
      return o.actions === undefined ? msg : { ...msg, actions: arr(o.actions, 'actions', MAX_ACTION_UNITS).map((a, i) => pendingAction(a, `actions[${i}]`)) };
    }
    case 'resolve-roll': {
      const o = obj(v, type, ['type', 'requestId', 'action', 'faces']);
      const msg = { type, ...optionalRequestId(o), action: pendingAction(o.action, 'action') };
      return o.faces === undefined ? msg : { ...msg, faces: diceFaces(o.faces, 'faces') };
    }
    case 'apply-outcome':
    case 'undo-outcome':
    case 'clear-outcome': {
      const o = obj(v, type, ['type', 'requestId', 'outcomeIndex']);
      return { type, ...optionalRequestId(o), outcomeIndex: int(o.outcomeIndex, 'outcomeIndex', 0, Number.MAX_SAFE_INTEGER) };
    }
    default:
      fail('type', `unknown message type "${type.slice(0, 40)}"`);
  }
}

/**
 * Whether `rulesetId` is one of the `installed` rule sets (the server's `LiveState.ruleset.installed`): the
 * one check of `set-ruleset` the wire cannot do alone. `not-found` names the installed ids.
 */
export function checkRulesetChoice(rulesetId: string, installed: readonly RulesetSummary[]): Parsed<RulesetSummary> {
  const found = installed.find((r) => r.id === rulesetId);
  if (found) return { ok: true, value: found };
  const ids = installed.map((r) => r.id).join(', ') || 'none';
  return { ok: false, code: 'not-found', message: `no rule set "${rulesetId.slice(0, LIMITS.maxRulesetIdChars)}" is installed (installed: ${ids})` };
}

/** Best effort: the requestId of a message that failed validation, so the error reply can name it. */
function salvageRequestId(v: unknown): { requestId?: string } {
  if (typeof v === 'object' && v !== null && !Array.isArray(v)) {
    const r = (v as Record<string, unknown>).requestId;
    if (typeof r === 'string' && r.length > 0 && r.length <= LIMITS.maxIdChars) return { requestId: r };
  }
  return {};
}

/** Validates an already parsed value as a client message. */
export function validateClientMessage(value: unknown): Parsed<ClientMessage> {
  try {
    return { ok: true, value: readClientMessage(value) };
  } catch (err) {
    if (err instanceof Invalid) return { ok: false, code: 'invalid-message', message: err.message, ...salvageRequestId(value) };
    throw err;
  }
}

/** UTF-8 length of a string, stopping early once it is known to exceed `limit`. */
export function utf8Length(s: string, limit = Infinity): number {
  let bytes = 0;
  for (let i = 0; i < s.length && bytes <= limit; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/**
 * Whether JSON text nests arrays and objects deeper than `maxDepth`: one pass over the characters,
 * skipping strings, cheap enough to run before every `JSON.parse` of client input. Deep input is refused
 * before it is parsed, so nothing that walks the value afterwards (validation, `JSON.stringify`) can run
 * out of stack. Text that is not JSON may pass; `JSON.parse` refuses it then.
 */
export function jsonDepthExceeds(text: string, maxDepth: number = LIMITS.maxJsonDepth): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > maxDepth) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/**
 * Client JSON (a message or a REST body) as a value: `invalid-message` when nested deeper than
 * `LIMITS.maxJsonDepth`, `bad-json` when it does not parse. Never throws.
 */
export function parseClientJson(text: string): Parsed<unknown> {
  if (jsonDepthExceeds(text)) {
    return { ok: false, code: 'invalid-message', message: `nested deeper than ${LIMITS.maxJsonDepth} levels` };
  }
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false, code: 'bad-json', message: 'not valid JSON' };
  }
}

/**
 * Parses and validates one client message as received (text, or the raw bytes of a frame). Size and
 * nesting depth are checked before parsing, so an oversized or deeply nested message costs little.
 */
export function parseClientMessage(raw: string | Uint8Array): Parsed<ClientMessage> {
  const max = LIMITS.maxClientMessageBytes;
  let text: string;
  if (typeof raw === 'string') {
    if (raw.length > max || utf8Length(raw, max) > max) {
      return { ok: false, code: 'too-large', message: `message larger than ${max} bytes` };
    }
    text = raw;
  } else {
    if (raw.byteLength > max) return { ok: false, code: 'too-large', message: `message larger than ${max} bytes` };
    text = new TextDecoder('utf-8', { fatal: false }).decode(raw);
  }
  const parsed = parseClientJson(text);
  if (!parsed.ok) return parsed.code === 'bad-json' ? { ok: false, code: 'bad-json', message: 'message is not valid JSON' } : parsed;
  return validateClientMessage(parsed.value);
}

const SERVER_TYPES = ['welcome', 'snapshot', 'delta', 'log', 'ack', 'pong', 'error'] as const;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Why `ref` is not a valid `evaluatedState` for a state or delta at (`seq`, `frameSeq`), or null when it
 * is: null or `{ seq, frameSeq, captureTimeMs }` with integer seqs, and never ahead of the state
 * carrying it (an evaluation cannot be of a later state or frame than the poses beside it).
 */
function evaluatedStateProblem(ref: unknown, seq: number, frameSeq: unknown): string | null {
  if (ref === null) return null;
  if (ref === undefined) return 'evaluatedState missing (required from protocol 2)';
  if (!isRecord(ref)) return 'evaluatedState must be an object or null';
  for (const key of Object.keys(ref)) {
    if (key !== 'seq' && key !== 'frameSeq' && key !== 'captureTimeMs') return `evaluatedState: unknown field "${key.slice(0, 40)}"`;
  }
  if (!Number.isInteger(ref.seq) || (ref.seq as number) < 0) return 'evaluatedState.seq must be an integer ≥ 0';
  if (!Number.isInteger(ref.frameSeq) || (ref.frameSeq as number) < -1) return 'evaluatedState.frameSeq must be an integer ≥ -1';
  if (typeof ref.captureTimeMs !== 'number' || !Number.isFinite(ref.captureTimeMs) || ref.captureTimeMs < 0) {
    return 'evaluatedState.captureTimeMs must be a finite number ≥ 0';
  }
  if ((ref.seq as number) > seq) return `evaluatedState.seq ${String(ref.seq)} is ahead of the state's seq ${seq}`;
  if (typeof frameSeq === 'number' && (ref.frameSeq as number) > frameSeq) {
    return `evaluatedState.frameSeq ${String(ref.frameSeq)} is ahead of the state's frameSeq ${frameSeq}`;
  }
  return null;
}

/**
 * Why `health` (of a snapshot's state or a delta) cannot be shown, or null. Only what later servers
 * added is checked: `camera`, when present, must be `{ state, source, detail, since }` (strings and a
 * time). A state this build does not know is allowed (a newer server may add one); unknown fields too.
 */
function healthProblem(health: unknown): string | null {
  if (health === undefined) return null;
  if (!isRecord(health)) return 'health must be an object';
  const camera = health.camera;
  if (camera === undefined) return null;
  if (!isRecord(camera)) return 'health.camera must be an object';
  for (const key of ['state', 'source', 'detail'] as const) {
    if (typeof camera[key] !== 'string') return `health.camera.${key} must be a string`;
  }
  if (typeof camera.since !== 'number' || !Number.isFinite(camera.since)) return 'health.camera.since must be a finite number';
  return null;
}

function measureEndProblem(v: unknown, path: string): string | null {
  if (!isRecord(v)) return `${path} must be an object`;
  if (typeof v.xIn !== 'number' || !Number.isFinite(v.xIn) || typeof v.yIn !== 'number' || !Number.isFinite(v.yIn)) return `${path}.xIn and .yIn must be finite numbers`;
  if (v.standId !== null && typeof v.standId !== 'string') return `${path}.standId must be a string or null`;
  return null;
}

/**
 * Why `focus` (protocol 4, optional) cannot be drawn, or null: `{ unitId, measure }` with a unit id or null
 * and a measure of two ends or null. Unknown fields are allowed (a newer server may add some).
 */
function focusProblem(focus: unknown): string | null {
  if (focus === undefined) return null;
  if (!isRecord(focus)) return 'focus must be an object';
  if (focus.unitId !== null && typeof focus.unitId !== 'string') return 'focus.unitId must be a string or null';
  const m = focus.measure;
  if (m === null) return null;
  if (!isRecord(m)) return 'focus.measure must be an object or null';
  return measureEndProblem(m.from, 'focus.measure.from') ?? measureEndProblem(m.to, 'focus.measure.to');
}

/** Why `ruleset` (protocol 4, optional) cannot be listed, or null. */
function rulesetStateProblem(ruleset: unknown): string | null {
  if (ruleset === undefined) return null;
  if (!isRecord(ruleset)) return 'ruleset must be an object';
  const summary = (r: unknown): boolean => isRecord(r) && typeof r.id === 'string' && typeof r.name === 'string' && typeof r.source === 'string';
  if (ruleset.current !== null && !summary(ruleset.current)) return 'ruleset.current must be { id, name, source } or null';
  if (!Array.isArray(ruleset.installed) || !ruleset.installed.every(summary)) return 'ruleset.installed must be a list of { id, name, source }';
  if (!Array.isArray(ruleset.rosterProblems) || !ruleset.rosterProblems.every((p) => typeof p === 'string')) return 'ruleset.rosterProblems must be a list of texts';
  return null;
}

/**
 * Structural check of a server message, for views: the type is known and the fields needed to apply it
 * are there with the right types. Content produced by the rules engine is trusted beyond that.
 * `serverProtocolVersion` (from `welcome`; default this build's) decides which fields are required:
 * from version 2 on, snapshots and deltas must carry a valid `evaluatedState` (null allowed).
 */
export function parseServerMessage(raw: string, serverProtocolVersion: number = PROTOCOL_VERSION): Parsed<ServerMessage> {
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch {
    return { ok: false, code: 'bad-json', message: 'server message is not valid JSON' };
  }
  const bad = (message: string): Parsed<ServerMessage> => ({ ok: false, code: 'invalid-message', message });
  if (!isRecord(v) || typeof v.type !== 'string' || !(SERVER_TYPES as readonly string[]).includes(v.type)) {
    return bad('unknown server message type');
  }
  switch (v.type) {
    case 'snapshot': {
      const s = v.state;
      if (!isRecord(s) || typeof s.seq !== 'number' || !isRecord(s.tableState) || !Array.isArray(s.tracks)) {
        return bad('snapshot: state missing or malformed');
      }
      if (!Array.isArray(v.recentLog)) return bad('snapshot: recentLog missing');
      const healthBad = healthProblem(s.health) ?? focusProblem(s.focus) ?? rulesetStateProblem(s.ruleset);
      if (healthBad) return bad(`snapshot: ${healthBad}`);
      if (serverProtocolVersion >= 2 || s.evaluatedState !== undefined) {
        const problem = evaluatedStateProblem(s.evaluatedState, s.seq, s.frameSeq);
        if (problem) return bad(`snapshot: ${problem}`);
      }
      break;
    }
    case 'delta':
      if (typeof v.seq !== 'number' || typeof v.baseSeq !== 'number' || !Array.isArray(v.liveTrackIds)) {
        return bad('delta: seq, baseSeq or liveTrackIds missing');
      }
      {
        const healthBad = healthProblem(v.health) ?? focusProblem(v.focus) ?? rulesetStateProblem(v.ruleset);
        if (healthBad) return bad(`delta: ${healthBad}`);
      }
      if (serverProtocolVersion >= 2 || v.evaluatedState !== undefined) {
        const problem = evaluatedStateProblem(v.evaluatedState, v.seq, v.frameSeq);
        if (problem) return bad(`delta: ${problem}`);
      }
      break;
    case 'log':
      if (!isRecord(v.entry) || typeof v.entry.kind !== 'string') return bad('log: entry missing');
      break;
    case 'error':
      if (typeof v.code !== 'string' || typeof v.message !== 'string') return bad('error: code or message missing');
      break;
    case 'welcome':
      if (typeof v.protocolVersion !== 'number' || (v.role !== 'viewer' && v.role !== 'operator')) {
        return bad('welcome: protocolVersion or role missing');
      }
      break;
    default:
      break;
  }
  return { ok: true, value: v as unknown as ServerMessage };
}
