/**
 * Reads and checks an army file (YAML or JSON; JSON is YAML, so one parser reads both). Every error names
 * the file and the path inside it, e.g. `army.yaml: units[2].stands[0].tag: tag 12 is already used by
 * units[0].stands[1]`, so the user can fix the file without reading code.
 */
import { parse as parseYaml } from 'yaml';
import { jsonDepthExceeds } from '@muster/protocol';
import { InputFileError, readInputFile } from '../io/readInputFile.ts';
import type { Arm, CommanderQuality, OptionalRule, Quality, RulesetValues, StandRole } from '@muster/rules';
import { TABLE_STATE_ENUMS } from '@muster/rules/enums';
import {
  ROSTER_VERSION,
  type BaseSize,
  type Roster,
  type RosterCommander,
  type RosterStand,
  type RosterUnit,
  type StatusToken,
  type StatusTokenKind,
  type TagOffset,
} from './roster.ts';

export class RosterError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RosterError';
  }
}

const ARMS: readonly Arm[] = ['infantry', 'cavalry', 'artillery'];
const QUALITIES: readonly Quality[] = TABLE_STATE_ENUMS.quality;
const OPTIONAL_RULES: readonly OptionalRule[] = TABLE_STATE_ENUMS.optionalRule;
const COMMANDER_QUALITIES: readonly CommanderQuality[] = ['superb', 'capable', 'weak'];
const ROLES: readonly StandRole[] = ['base', 'command', 'gun', 'limber', 'mounted', 'dismounted', 'commander'];
const TOKEN_KINDS: readonly StatusTokenKind[] = ['disordered', 'hit', 'prone', 'commander'];
/** The Devil to Pay, Basing: infantry 1½" square, mounted cavalry 2" square, artillery 1½" × 3". Commanders: a 1¼" base. */
const DEFAULT_BASE: Record<Arm | 'commander', BaseSize> = {
  infantry: { widthIn: 1.5, depthIn: 1.5 },
  cavalry: { widthIn: 2, depthIn: 2 },
  artillery: { widthIn: 1.5, depthIn: 3 },
  commander: { widthIn: 1.25, depthIn: 1.25 },
};
const CENTRED: TagOffset = { rightIn: 0, forwardIn: 0, rotationDeg: 0 };
/** ArUco dictionaries go up to 1000 ids (DICT_*_1000). */
const MAX_TAG_ID = 999;

type Obj = Record<string, unknown>;

class Reader {
  constructor(private readonly file: string) {}

  fail(path: string, message: string): never {
    throw new RosterError(`${this.file}: ${path === '' ? '' : `${path}: `}${message}`);
  }

  object(v: unknown, path: string, allowed: readonly string[]): Obj {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) this.fail(path, `must be a mapping (got ${describe(v)})`);
    for (const key of Object.keys(v)) {
      if (!allowed.includes(key)) this.fail(join(path, key), `unknown field (allowed here: ${allowed.join(', ')})`);
    }
    return v as Obj;
  }

  array(v: unknown, path: string): unknown[] {
    if (!Array.isArray(v)) this.fail(path, `must be a list (got ${describe(v)})`);
    return v;
  }

  string(o: Obj, key: string, path: string): string {
    const v = o[key];
    if (typeof v !== 'string' || v.trim() === '') this.fail(join(path, key), `must be a non-empty string (got ${describe(v)})`);
    return v;
  }

  optString(o: Obj, key: string, path: string): string | undefined {
    return o[key] === undefined ? undefined : this.string(o, key, path);
  }

  number(o: Obj, key: string, path: string, min: number, dflt?: number): number {
    const v = o[key] ?? dflt;
    if (typeof v !== 'number' || !Number.isFinite(v) || v < min) this.fail(join(path, key), `must be a number ≥ ${min} (got ${describe(v)})`);
    return v;
  }

  optBool(o: Obj, key: string, path: string): boolean | undefined {
    const v = o[key];
    if (v !== undefined && typeof v !== 'boolean') this.fail(join(path, key), `must be true or false (got ${describe(v)})`);
    return v;
  }

  oneOf<T extends string>(o: Obj, key: string, path: string, allowed: readonly T[], dflt?: T): T {
    const v = o[key] ?? dflt;
    if (typeof v !== 'string' || !allowed.includes(v as T)) this.fail(join(path, key), `must be one of ${allowed.join(', ')} (got ${describe(v)})`);
    return v as T;
  }

  /** A rule set's own values: ids → number, text, true/false or a list of text; the rule set checks the rest. */
  rulesetValues(o: Obj, key: string, path: string): RulesetValues | undefined {
    if (o[key] === undefined) return undefined;
    const at = join(path, key);
    const bag = this.object(o[key], at, Object.keys((o[key] as Obj | null) ?? {}));
    for (const [k, v] of Object.entries(bag)) {
      if (!/^[A-Za-z][A-Za-z0-9-]*$/.test(k)) this.fail(join(at, k), 'must be an id of letters, digits and dashes, starting with a letter');
      const ok =
        (typeof v === 'number' && Number.isFinite(v)) ||
        (typeof v === 'string' && v !== '') ||
        typeof v === 'boolean' ||
        (Array.isArray(v) && v.every((x) => typeof x === 'string' && x !== ''));
      if (!ok) this.fail(join(at, k), `must be a number, text, true/false or a list of text (got ${describe(v)})`);
    }
    return bag as RulesetValues;
  }

  tag(o: Obj, key: string, path: string): number {
    const v = o[key];
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > MAX_TAG_ID) {
      this.fail(join(path, key), `must be an ArUco tag id, an integer 0..${MAX_TAG_ID} (got ${describe(v)})`);
    }
    return v;
  }

  base(v: unknown, path: string, dflt: BaseSize): BaseSize {
    if (v === undefined) return dflt;
    const o = this.object(v, path, ['widthIn', 'depthIn']);
    return { widthIn: this.number(o, 'widthIn', path, 0.1), depthIn: this.number(o, 'depthIn', path, 0.1) };
  }

  offset(v: unknown, path: string, dflt: TagOffset): TagOffset {
    if (v === undefined) return dflt;
    const o = this.object(v, path, ['rightIn', 'forwardIn', 'rotationDeg']);
    return {
      rightIn: this.number(o, 'rightIn', path, -Infinity, 0),
      forwardIn: this.number(o, 'forwardIn', path, -Infinity, 0),
      rotationDeg: this.number(o, 'rotationDeg', path, -Infinity, 0),
    };
  }
}

function join(path: string, key: string | number): string {
  return typeof key === 'number' ? `${path}[${key}]` : path === '' ? key : `${path}.${key}`;
}

function describe(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object' && v !== null) return 'a mapping';
  return JSON.stringify(v);
}

/** Parses and checks roster text; `file` names the source in error messages. */
/** Largest army file read (a 2,000-stand roster is well under 1 MB; a 50 MB file once took 2.3 GB to refuse). */
export const MAX_ROSTER_BYTES = 8_000_000;
/** Deepest nesting of lists and maps (flow style) taken in an army file. */
const MAX_ROSTER_DEPTH = 64;

export function parseRoster(text: string, file = 'roster'): Roster {
  const r = new Reader(file);
  // Refused before the YAML parser sees it: a value nested thousands deep ran it out of stack.
  if (jsonDepthExceeds(text, MAX_ROSTER_DEPTH)) r.fail('', `nests lists and maps deeper than ${MAX_ROSTER_DEPTH} levels; an army file nests 4 or 5`);
  let doc: unknown;
  try {
    doc = parseYaml(text, { uniqueKeys: true });
  } catch (err) {
    r.fail('', `not valid YAML/JSON: ${(err as Error).message.split('\n')[0]}`);
  }
  const root = r.object(doc, '', ['version', 'name', 'ruleset', 'statusTokenRadiusIn', 'units', 'commanders', 'statusTokens', 'optionalRules', 'rulesetParameters']);
  if (root.version !== ROSTER_VERSION) r.fail('version', `must be ${ROSTER_VERSION} (got ${describe(root.version)})`);

  const tagOwner = new Map<number, string>();
  const claimTag = (tag: number, path: string): void => {
    const owner = tagOwner.get(tag);
    if (owner !== undefined) r.fail(join(path, 'tag'), `tag ${tag} is already used by ${owner}`);
    tagOwner.set(tag, path);
  };
  const ids = new Map<string, string>();
  const claimId = (id: string, path: string): void => {
    const owner = ids.get(id);
    if (owner !== undefined) r.fail(join(path, 'id'), `id "${id}" is already used by ${owner}`);
    ids.set(id, path);
  };

  const units: RosterUnit[] = r.array(root.units ?? [], 'units').map((uv, ui) => {
    const up = join('units', ui);
    const u = r.object(uv, up, ['id', 'name', 'side', 'arm', 'quality', 'weapon', 'brigade', 'independent', 'horseArtillery', 'sharpshooters', 'rulesetFields', 'base', 'tagOffset', 'stands']);
    const id = r.string(u, 'id', up);
    claimId(id, up);
    const arm = r.oneOf(u, 'arm', up, ARMS);
    const base = r.base(u.base, join(up, 'base'), DEFAULT_BASE[arm]);
    const tagOffset = r.offset(u.tagOffset, join(up, 'tagOffset'), CENTRED);
    const standList = r.array(u.stands, join(up, 'stands'));
    if (standList.length === 0) r.fail(join(up, 'stands'), 'a unit needs at least one stand');
    const stands: RosterStand[] = standList.map((sv, si) => {
      const sp = join(join(up, 'stands'), si);
      const s = r.object(sv, sp, ['id', 'tag', 'role', 'base', 'tagOffset']);
      const standId = s.id === undefined ? `${id}-${si + 1}` : r.string(s, 'id', sp);
      claimId(standId, sp);
      const tag = r.tag(s, 'tag', sp);
      claimTag(tag, sp);
      const role = r.oneOf(s, 'role', sp, ROLES.filter((x) => x !== 'commander'), arm === 'artillery' ? 'gun' : 'base');
      return { id: standId, tag, role, base: r.base(s.base, join(sp, 'base'), base), tagOffset: r.offset(s.tagOffset, join(sp, 'tagOffset'), tagOffset) };
    });
    const command = stands.filter((s) => s.role === 'command');
    if (command.length > 1) r.fail(join(up, 'stands'), `a unit has at most one command stand (found ${command.length})`);
    const brigadeId = r.optString(u, 'brigade', up);
    const independent = r.optBool(u, 'independent', up);
    const horseArtillery = r.optBool(u, 'horseArtillery', up);
    const sharpshooters = r.optBool(u, 'sharpshooters', up);
    const rulesetFields = r.rulesetValues(u, 'rulesetFields', up);
    if (horseArtillery && arm !== 'artillery') r.fail(join(up, 'horseArtillery'), `only artillery can be horse artillery (arm is ${arm})`);
    return {
      id,
      name: r.string(u, 'name', up),
      side: r.string(u, 'side', up),
      arm,
      quality: r.oneOf(u, 'quality', up, QUALITIES),
      weapon: r.string(u, 'weapon', up),
      ...(brigadeId !== undefined ? { brigadeId } : {}),
      ...(independent !== undefined ? { independent } : {}),
      ...(horseArtillery !== undefined ? { horseArtillery } : {}),
      ...(sharpshooters !== undefined ? { sharpshooters } : {}),
      ...(rulesetFields !== undefined ? { rulesetFields } : {}),
      stands: [...command, ...stands.filter((s) => s.role !== 'command')],
    };
  });

  const commanders: RosterCommander[] = r.array(root.commanders ?? [], 'commanders').map((cv, ci) => {
    const cp = join('commanders', ci);
    const c = r.object(cv, cp, ['id', 'name', 'side', 'brigade', 'quality', 'cavalry', 'tag', 'base', 'tagOffset']);
    const id = r.string(c, 'id', cp);
    claimId(id, cp);
    let stand: RosterStand | undefined;
    if (c.tag !== undefined) {
      const tag = r.tag(c, 'tag', cp);
      claimTag(tag, cp);
      stand = { id: `${id}-stand`, tag, role: 'commander', base: r.base(c.base, join(cp, 'base'), DEFAULT_BASE.commander), tagOffset: r.offset(c.tagOffset, join(cp, 'tagOffset'), CENTRED) };
      claimId(stand.id, cp);
    }
    const cavalry = r.optBool(c, 'cavalry', cp);
    return {
      id,
      name: r.string(c, 'name', cp),
      side: r.string(c, 'side', cp),
      brigadeId: r.string(c, 'brigade', cp),
      quality: r.oneOf(c, 'quality', cp, COMMANDER_QUALITIES),
      ...(cavalry !== undefined ? { cavalry } : {}),
      ...(stand ? { stand } : {}),
    };
  });

  const commanderIds = new Set(commanders.map((c) => c.id));
  const statusTokens: StatusToken[] = r.array(root.statusTokens ?? [], 'statusTokens').map((tv, ti) => {
    const tp = join('statusTokens', ti);
    const t = r.object(tv, tp, ['tag', 'kind', 'commander']);
    const tag = r.tag(t, 'tag', tp);
    claimTag(tag, tp);
    const kind = r.oneOf(t, 'kind', tp, TOKEN_KINDS);
    if (kind !== 'commander') {
      if (t.commander !== undefined) r.fail(join(tp, 'commander'), `only a commander token names a commander (kind is ${kind})`);
      return { tag, kind };
    }
    const commanderId = r.string(t, 'commander', tp);
    if (!commanderIds.has(commanderId)) r.fail(join(tp, 'commander'), `unknown commander "${commanderId}" (known: ${[...commanderIds].join(', ') || 'none'})`);
    return { tag, kind, commanderId };
  });

  // References between parts: a unit's brigade must have a commander on the same side, if any commanders exist.
  const brigades = new Map(commanders.map((c) => [c.brigadeId, c.side]));
  units.forEach((u, ui) => {
    if (u.brigadeId === undefined) return;
    const side = brigades.get(u.brigadeId);
    if (side === undefined) {
      r.fail(join(join('units', ui), 'brigade'), `unknown brigade "${u.brigadeId}" (no commander has it; known: ${[...brigades.keys()].join(', ') || 'none'})`);
    }
    if (side !== u.side) r.fail(join(join('units', ui), 'brigade'), `brigade "${u.brigadeId}" belongs to side "${side}", the unit is "${u.side}"`);
  });
  if (units.length === 0 && commanders.length === 0) r.fail('', 'the roster has no units and no commanders');
  const optionalRules = root.optionalRules === undefined ? undefined : r.array(root.optionalRules, 'optionalRules').map((v, i, all) => {
    const at = join('optionalRules', i);
    if (typeof v !== 'string' || !OPTIONAL_RULES.includes(v as OptionalRule)) r.fail(at, `must be one of ${OPTIONAL_RULES.join(', ')} (got ${describe(v)})`);
    if (all.indexOf(v) !== i) r.fail(at, `"${v}" is listed twice`);
    return v as OptionalRule;
  });

  const ruleset = r.optString(root, 'ruleset', '');
  const rulesetParameters = r.rulesetValues(root, 'rulesetParameters', '');

  return {
    version: ROSTER_VERSION,
    name: root.name === undefined ? file : r.string(root, 'name', ''),
    statusTokenRadiusIn: r.number(root, 'statusTokenRadiusIn', '', 0, 1),
    units,
    commanders,
    statusTokens,
    ...(optionalRules !== undefined ? { optionalRules } : {}),
    ...(ruleset !== undefined ? { ruleset } : {}),
    ...(rulesetParameters !== undefined ? { rulesetParameters } : {}),
  };
}

/** Reads an army file from disk. */
export async function loadRoster(path: string): Promise<Roster> {
  let text: string;
  try {
    text = readInputFile(path, { maxBytes: MAX_ROSTER_BYTES, what: 'roster' }).toString('utf8');
  } catch (err) {
    if (err instanceof InputFileError && err.code !== undefined) throw new RosterError(`${path}: cannot read the roster (${err.code})`);
    if (err instanceof InputFileError) throw new RosterError(`${err.message} (an army file is a few KB)`);
    throw new RosterError(`${path}: cannot read the roster (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  return parseRoster(text, path);
}
