/**
 * `muster rules <state.json> --resolve …`: after the roll without the service. The action comes as a kind
 * with flags (`--resolve fire --unit us1 --target al19`) or whole as JSON (`--resolve '{"kind":"fire",…}'`);
 * the faces as `--dice fire=6,2,4` (one group per flag, or `;` between groups, or JSON), or the seeded roller
 * rolls them (`--seed <n>`). `--offered --unit <id>` lists what a unit may roll for, with the dice. Generic
 * over `Ruleset.resolution`: a rule set without it says it does not resolve rolls yet.
 */
import {
  ResolveError,
  createRng,
  diceForAction,
  evaluate,
  resolutionOf,
  resolveAction,
  rollRequestedDice,
  seedFromString,
  type DiceFaces,
  type DiceRequest,
  type Outcome,
  type PendingAction,
  type Refusal,
  type Ruleset,
  type RulesetValue,
  type TableState,
} from '@muster/rules';
import { CliError } from '../cliError.ts';

/** The flags that make up an action besides `--resolve` (and `--unit`, shared with the evaluation's detail). */
export interface ResolveFlags {
  readonly resolve: string;
  readonly unit?: string;
  readonly target?: string;
  readonly units?: string;
  readonly targets?: string;
  readonly commander?: string;
  readonly choice: readonly string[];
  readonly dice: readonly string[];
  readonly seed?: string;
}

function isRefusal(x: unknown): x is Refusal {
  return typeof x === 'object' && x !== null && (x as { ok?: unknown }).ok === false;
}

function list(raw: string | undefined): string[] | undefined {
  if (raw === undefined) return undefined;
  const ids = raw.split(',').map((s) => s.trim()).filter((s) => s !== '');
  return ids.length > 0 ? ids : undefined;
}

/** `close=true` → ['close', true]; numbers and true/false are read as such, anything else is text. */
function choiceValue(raw: string): [string, RulesetValue] {
  const at = raw.indexOf('=');
  if (at <= 0) throw new CliError(`--choice takes key=value, e.g. --choice close=true (got "${raw}")`);
  const key = raw.slice(0, at);
  const text = raw.slice(at + 1);
  if (text === 'true' || text === 'false') return [key, text === 'true'];
  if (text.trim() !== '' && Number.isFinite(Number(text))) return [key, Number(text)];
  return [key, text];
}

/** The pending action the flags describe. */
export function actionFromFlags(flags: ResolveFlags): PendingAction {
  const raw = flags.resolve.trim();
  if (raw.startsWith('{')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch (err) {
      throw new CliError(`--resolve is not valid JSON: ${(err as Error).message}`);
    }
    if (typeof parsed !== 'object' || parsed === null || typeof (parsed as { kind?: unknown }).kind !== 'string') {
      throw new CliError('--resolve JSON must be an action object with a "kind", e.g. {"kind":"fire","unitId":"us1","targetUnitId":"al19"}');
    }
    return parsed as PendingAction;
  }
  if (!/^[a-z][a-z0-9-]*$/.test(raw)) throw new CliError(`--resolve takes an action kind (e.g. fire) or the action as JSON (got "${raw}")`);
  const choices = Object.fromEntries(flags.choice.map(choiceValue));
  const unitIds = list(flags.units);
  const targetUnitIds = list(flags.targets);
  return {
    kind: raw,
    ...(flags.unit !== undefined ? { unitId: flags.unit } : {}),
    ...(flags.target !== undefined ? { targetUnitId: flags.target } : {}),
    ...(unitIds ? { unitIds } : {}),
    ...(targetUnitIds ? { targetUnitIds } : {}),
    ...(flags.commander !== undefined ? { commanderId: flags.commander } : {}),
    ...(Object.keys(choices).length > 0 ? { choices } : {}),
  };
}

function faceList(text: string, what: string): number[] {
  const faces = text.split(/[,\s]+/).filter((s) => s !== '').map(Number);
  if (faces.some((f) => !Number.isInteger(f))) throw new CliError(`${what}: faces are whole numbers separated by commas, e.g. 6,2,4 (got "${text}")`);
  return faces;
}

/**
 * The faces given with `--dice`: `id=6,2,4` per group (repeat the flag or separate groups with `;`), JSON
 * (`{"attacker":[6,2],"defender":[1]}`), or bare faces when the action asks for one group only.
 */
export function facesFromFlags(values: readonly string[], requests: readonly DiceRequest[]): DiceFaces {
  const faces: Record<string, number[]> = {};
  for (const value of values) {
    const raw = value.trim();
    if (raw.startsWith('{')) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(raw);
      } catch (err) {
        throw new CliError(`--dice is not valid JSON: ${(err as Error).message}`);
      }
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new CliError('--dice JSON must map each group to its faces, e.g. {"fire":[6,2,4]}');
      Object.assign(faces, parsed);
      continue;
    }
    for (const group of raw.split(';').map((g) => g.trim()).filter((g) => g !== '')) {
      const at = group.indexOf('=');
      if (at < 0) {
        if (requests.length !== 1) {
          throw new CliError(`--dice: this roll has ${requests.length} groups (${requests.map((r) => r.id).join(', ') || 'none'}); name each, e.g. --dice ${requests.map((r) => `${r.id}=…`).join(' --dice ')}`);
        }
        faces[requests[0]!.id] = faceList(group, '--dice');
      } else faces[group.slice(0, at).trim()] = faceList(group.slice(at + 1), `--dice ${group.slice(0, at).trim()}`);
    }
  }
  return faces;
}

/** A request's label, with its count and die when the label does not already say them. */
function requestWords(r: DiceRequest): string {
  if (r.label.includes(`d${r.sides}`)) return r.label;
  const how =
    r.reading === 'hits' ? `, hits on ${r.hitOn ?? 4}+`
    : r.reading === 'under' ? `, passes on ${r.target ?? 0} or less`
    : r.modifier ? `, ${r.modifier > 0 ? '+' : ''}${r.modifier} to the roll`
    : '';
  return `${r.label}: ${r.count} d${r.sides}${how}`;
}

/** "fire: 2nd Wisconsin fires at 4th Texas: 5 d6, hits on 4+  [Fire (p. 23)]". */
export function requestLine(r: DiceRequest): string {
  return `${r.id}: ${requestWords(r)}  [${r.source}]`;
}

function unitName(state: TableState, id: string): string {
  const unit = state.units.find((u) => u.id === id);
  return unit ? `${unit.name} (${id})` : id;
}

/** An outcome as text for the table: the dice read, the result, its steps and what happens to each unit. */
export function formatOutcome(state: TableState, ruleset: Ruleset, outcome: Outcome, rolledBy: string): string {
  const a = outcome.action;
  const who = [a.unitId, ...(a.unitIds ?? []).filter((id) => id !== a.unitId)].filter((id): id is string => id !== undefined).map((id) => unitName(state, id));
  const whom = [a.targetUnitId, ...(a.targetUnitIds ?? []).filter((id) => id !== a.targetUnitId)].filter((id): id is string => id !== undefined).map((id) => unitName(state, id));
  const out = [`${ruleset.name}: ${a.kind}${who.length ? `, ${who.join(' + ')}` : ''}${whom.length ? ` → ${whom.join(' + ')}` : ''}${a.commanderId ? ` (commander ${a.commanderId})` : ''}`];
  out.push(`dice (${rolledBy}):`);
  for (const r of outcome.rolls) out.push(`  ${requestWords(r.request)}: ${r.faces.join(' ') || 'none'} → ${r.value}${r.request.reading === 'hits' ? ` hit${r.value === 1 ? '' : 's'} on ${r.request.hitOn ?? 4}+` : r.request.reading === 'under' ? ` passed` : ''}  [${r.request.source}]`);
  out.push(`result: ${outcome.result}`);
  if (outcome.summary) out.push(`  ${outcome.summary}`);
  if (outcome.steps.length > 0) {
    out.push('steps:');
    for (const s of outcome.steps) out.push(`  - ${s.text}  [${s.source}]`);
  }
  if (outcome.effects.length > 0) {
    out.push('effects:');
    for (const e of outcome.effects) {
      const name = e.unitId ? unitName(state, e.unitId) : `commander ${e.commanderId}`;
      out.push(`  ${name}: ${e.text}  [${e.source}]`);
      if (e.standsLost) out.push(`      stands lost: ${e.standsLost}${e.standIds?.length ? ` (${e.standIds.join(', ')})` : ' (players choose)'}`);
      if (e.status) out.push(`      status: ${JSON.stringify(e.status)}`);
      if (e.removed) out.push('      leaves play');
      if (e.move) {
        const m = e.move;
        const path = m.path.map((p) => `(${p.xIn.toFixed(1)}, ${p.yIn.toFixed(1)})`).join(' → ');
        out.push(`      ${m.kind} ${m.distanceIn.toFixed(1)}": ${path}${m.leavesTable ? ', leaves the table' : ''}${m.endHeadingDeg !== undefined ? `, ends facing ${Math.round(m.endHeadingDeg)}°` : ''}  [${m.source}]`);
        if (m.text) out.push(`      ${m.text}`);
      }
    }
  } else out.push('effects: none');
  if (outcome.followUps.length > 0) {
    out.push('to roll next:');
    for (const f of outcome.followUps) out.push(`  --resolve '${JSON.stringify(f)}'`);
  }
  return out.join('\n');
}

/** What a unit may roll for now, with the dice each needs (or why the rules refuse it). */
export function offeredText(state: TableState, ruleset: Ruleset, unitId: string, json: boolean): string {
  const resolution = asCliError(() => resolutionOf(ruleset));
  if (!state.units.some((u) => u.id === unitId)) throw new CliError(`unknown unit "${unitId}" (units: ${state.units.map((u) => u.id).join(', ')})`);
  const offered = resolution.offered(state, evaluate(state, ruleset), unitId).map((action) => ({ action, dice: asCliError(() => diceForAction(ruleset, state, action)) }));
  if (json) return JSON.stringify({ rulesetId: ruleset.id, unitId, dice: resolution.dice, actions: offered }, null, 2);
  const out = [`${unitName(state, unitId)} may roll for (${ruleset.name}, d${resolution.dice.sides}, ${resolution.dice.styles.join('/')}):`];
  if (offered.length === 0) out.push('  nothing now');
  for (const o of offered) {
    out.push(`  --resolve '${JSON.stringify(o.action)}'`);
    if (isRefusal(o.dice)) out.push(`      refused: ${o.dice.reason}${o.dice.detail ? ` (${o.dice.detail})` : ''}`);
    else for (const r of o.dice) out.push(`      ${requestLine(r)}`);
  }
  return out.join('\n');
}

function asCliError<T>(run: () => T): T {
  try {
    return run();
  } catch (err) {
    if (err instanceof ResolveError) throw new CliError(err.message);
    throw err;
  }
}

/**
 * The outcome of the flags' action on this state, as text or JSON. A rules refusal is printed (its JSON, or
 * one line) with exit code 1; a malformed action or faces that do not fit are a `CliError` saying what to give.
 */
export function resolveText(state: TableState, ruleset: Ruleset, flags: ResolveFlags, json: boolean): { text: string; exitCode: number } {
  const action = actionFromFlags(flags);
  const requests = asCliError(() => diceForAction(ruleset, state, action));
  const refused = (r: Refusal) => ({ text: json ? JSON.stringify(r, null, 2) : `refused: ${r.reason}${r.detail ? ` (${r.detail})` : ''}`, exitCode: 1 });
  if (isRefusal(requests)) return refused(requests);
  if (flags.dice.length > 0 && flags.seed !== undefined) throw new CliError('give either --dice (the faces rolled) or --seed (roll them here), not both');
  let faces: DiceFaces;
  let rolledBy: string;
  if (flags.dice.length > 0) {
    faces = facesFromFlags(flags.dice, requests);
    rolledBy = 'entered';
  } else if (flags.seed !== undefined) {
    const seed = /^-?\d+$/.test(flags.seed) ? Number(flags.seed) : seedFromString(flags.seed);
    faces = rollRequestedDice(requests, createRng(seed));
    rolledBy = `rolled, seed ${flags.seed}`;
  } else {
    const needs = requests.map((r) => `${r.id}: ${r.count} d${r.sides}`).join(', ');
    throw new CliError(`this roll needs dice (${needs || 'none'}): give the faces with --dice ${requests.map((r) => `${r.id}=…`).join(';') || '…'} or roll them with --seed <n>`);
  }
  const outcome = asCliError(() => resolveAction(ruleset, state, action, faces));
  if (isRefusal(outcome)) return refused(outcome);
  return { text: json ? JSON.stringify(outcome, null, 2) : formatOutcome(state, ruleset, outcome, rolledBy), exitCode: 0 };
}
