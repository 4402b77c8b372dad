/**
 * `muster rules <state.json> [--ruleset <id>] [--json]`: evaluate a saved table state and print what each
 * unit may do (a readable table, or the full evaluation as JSON). `muster rules --list` prints the
 * installed rule-set ids, one per line; `muster rules --params <id>` what a rule set asks the operator to
 * enter. After the roll (`rulesResolve.ts`): `--offered --unit <id>` lists what a unit may roll for, with the
 * dice; `--resolve <kind|json> … --dice … | --seed <n>` prints the outcome. A bad file or option is one line
 * on stderr and exit code 2; a roll the rules refuse prints the refusal with exit code 1.
 */
import type { DiceBreakdown, Evaluation, Refusal, TableState, UnitEvaluation } from '@muster/rules';
import type { Ruleset } from '@muster/rules';
import { DEFAULT_RULESET_ID, evaluate, getRuleset, installedRulesets, parseTableStateFor, TableStateError } from '@muster/rules';
import { CliError } from '../cliError.ts';
import { numberValue, parseCommandArgs, type CommandSpec } from '../commandArgs.ts';
import { formatRulesetParams } from '../formatRulesetParams.ts';
import { offeredText, resolveText } from './rulesResolve.ts';
import { InputFileError, readInputFile } from '../../io/readInputFile.ts';
import { jsonDepthExceeds } from '@muster/protocol';

/** Deepest nesting of arrays and objects taken in a state file (a real one nests 5 or 6). */
const MAX_STATE_DEPTH = 64;

/** Table states above this are refused before they are read: parsing JSON costs ~50× its size in memory. */
export const DEFAULT_MAX_INPUT_MB = 8;

const SPEC = {
  command: 'rules',
  synopsis: [
    '<state.json> [--ruleset <id>] [--json | --unit <id>]',
    '<state.json> [--ruleset <id>] --offered --unit <id> [--json]',
    "<state.json> [--ruleset <id>] --resolve <kind|json> [--unit <id>] [--target <id>] [--choice k=v] (--dice <faces> | --seed <n>) [--json]",
    '--list',
    '--params <id>',
  ],
  positionals: [{ name: '<state.json>', help: 'a table state (schema: packages/rules/schema/table-state.schema.json); - reads stdin' }],
  tooMany: (p: readonly string[]) => `one state file at a time (got "${p[0]}" and "${p[1]}")`,
  options: {
    ruleset: { type: 'string', arg: '<id>', help: `rule set to apply (default ${DEFAULT_RULESET_ID}; see --list)` },
    json: { type: 'boolean', help: 'print the whole evaluation as JSON instead of a table' },
    unit: { type: 'string', arg: '<id>', help: 'print one unit in detail: every fire and charge option with its dice modifiers\nand every refusal with its reason' },
    list: { type: 'boolean', help: 'print the installed rule-set ids, one per line' },
    params: { type: 'string', arg: '<id>', help: 'print the parameters, unit fields and status fields a rule set reads, with the\nnumbers its document does not give and where to find them' },
    offered: { type: 'boolean', help: 'with --unit: what the unit may roll for now (after the roll), each action with\nthe dice it needs, as --resolve arguments' },
    resolve: { type: 'string', arg: '<kind|json>', help: 'the outcome of an action: its kind (e.g. fire) with --unit, --target, --units,\n--targets, --commander, --choice; or the whole action as JSON, e.g.\n\'{"kind":"fire","unitId":"us1","targetUnitId":"al19"}\'' },
    target: { type: 'string', arg: '<id>', help: 'with --resolve: the unit acted on (the target, the unit charged)' },
    units: { type: 'string', arg: '<ids>', help: 'with --resolve: more acting units, comma-separated (a joint charge)' },
    targets: { type: 'string', arg: '<ids>', help: 'with --resolve: units joining on the other side, comma-separated' },
    commander: { type: 'string', arg: '<id>', help: 'with --resolve: the commander the action concerns' },
    choice: { type: 'string', multiple: true, arg: '<key=value>', help: 'with --resolve: a choice made before rolling (repeatable), e.g. close=true' },
    dice: { type: 'string', multiple: true, arg: '<faces>', help: 'with --resolve: the faces rolled, per group: fire=6,2,4 (repeat, or ; between\ngroups), JSON {"attacker":[6,2],"defender":[1]}, or bare 6,2,4 for one group' },
    seed: { type: 'string', arg: '<n>', help: 'with --resolve: roll the dice here with the seeded roller (a number or any text)' },
    'max-input-mb': { type: 'string', arg: '<n>', help: `refuse a state file larger than this (default ${DEFAULT_MAX_INPUT_MB} MB; a 1,000-stand table is well under 1 MB)` },
  },
} as const satisfies CommandSpec;

function tooLarge(label: string, bytes: number | null, maxMb: number): CliError {
  const size = bytes === null ? `more than ${maxMb} MB` : `${(bytes / 1e6).toFixed(1)} MB`;
  const suggest = bytes === null ? maxMb * 4 : Math.ceil(bytes / 1e6);
  return new CliError(`${label} is ${size}, above the ${maxMb} MB limit for a table state; if it really is one, pass --max-input-mb ${suggest}`);
}

async function readStdin(maxBytes: number, maxMb: number): Promise<string> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of process.stdin) {
    total += (chunk as Buffer).length;
    if (total > maxBytes) throw tooLarge('standard input', null, maxMb);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Read (`-` = standard input), parse and validate a state file; every failure becomes one actionable line.
 * A file over `maxInputMb` is refused before it is read.
 */
export async function loadTableState(file: string, maxInputMb = DEFAULT_MAX_INPUT_MB, ruleset: Ruleset = getRuleset()): Promise<TableState> {
  const label = file === '-' ? 'standard input' : file;
  const maxBytes = maxInputMb * 1e6;
  let text: string;
  try {
    text =
      file === '-'
        ? await readStdin(maxBytes, maxInputMb)
        : readInputFile(file, { maxBytes, what: 'table state', raise: (mb) => `pass --max-input-mb ${mb}` }).toString('utf8');
  } catch (err) {
    if (err instanceof CliError) throw err;
    if (err instanceof InputFileError) throw new CliError(err.message);
    throw new CliError(`cannot read ${file}: ${(err as Error).message}`);
  }
  // Refused before parsing: a value nested thousands deep runs the validator out of stack.
  if (jsonDepthExceeds(text, MAX_STATE_DEPTH)) throw new CliError(`${label} nests arrays and objects deeper than ${MAX_STATE_DEPTH} levels; it is not a table state`);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new CliError(`${label} is not valid JSON: ${(err as Error).message}`);
  }
  try {
    return parseTableStateFor(json, ruleset);
  } catch (err) {
    if (err instanceof TableStateError) throw new CliError(`${label}: ${err.oneLine()}`);
    throw err;
  }
}

function isRefusal(x: unknown): x is Refusal {
  return typeof x === 'object' && x !== null && (x as { ok?: unknown }).ok === false;
}

/** A breakdown's total in its own unit: '6d' (dice, '6d@5+' with a hit number), '8pts' (points), '-1' (a die modifier). */
function dice(b: DiceBreakdown): string {
  if (b.kind === 'points') return `${b.dice}pts`;
  if (b.kind === 'modifier') return `${b.dice >= 0 ? '+' : ''}${b.dice}`;
  return `${b.dice}d${b.hitOn !== undefined ? `@${b.hitOn}+` : ''}`;
}

function breakdownTotal(b: DiceBreakdown): string {
  if (b.kind === 'points') return `${b.dice} points (base ${b.baseDice})`;
  if (b.kind === 'modifier') return `die modifier ${b.dice >= 0 ? '+' : ''}${b.dice} (base ${b.baseDice})`;
  return `${b.dice} dice (base ${b.baseDice})${b.hitOn !== undefined ? `, each hits on ${b.hitOn}+` : ''}`;
}

function inches(v: number): string {
  return `${Math.round(v * 10) / 10}"`;
}

function cells(u: UnitEvaluation, state: TableState): string[] {
  const unit = state.units.find((x) => x.id === u.unitId);
  const f = u.formation;
  const formation = `${f.formation}${f.source === 'status' ? ' (set)' : ` (${f.confidence.toFixed(2)})`}`;
  const move = isRefusal(u.movement) ? u.movement.reason : inches(u.movement.allowanceIn);
  const fireOk = u.fire.filter((x) => !isRefusal(x)) as Extract<UnitEvaluation['fire'][number], { ok: true }>[];
  const fire =
    fireOk.length === 0
      ? u.fire.length === 0
        ? '-'
        : `none (${u.fire.length} refused)`
      : fireOk.map((t) => `${t.priority ? '*' : ''}${t.targetUnitId} ${inches(t.rangeIn)} ${dice(t.breakdown)}`).join(', ');
  const chargeOk = u.charge.filter((x) => !isRefusal(x)) as Extract<UnitEvaluation['charge'][number], { ok: true }>[];
  const charge = chargeOk.length === 0 ? '-' : chargeOk.map((t) => `${t.targetUnitId} ${dice(t.attacker)}:${dice(t.defender)}`).join(', ');
  const rally = isRefusal(u.rally) ? u.rally.reason : dice(u.rally);
  return [u.unitId, unit?.side ?? '?', formation, move, fire, charge, rally];
}

/** A plain-text table of an evaluation, one row per unit in state order. */
export function formatEvaluation(state: TableState, ev: Evaluation, title: string): string {
  const head = ['UNIT', 'SIDE', 'FORMATION', 'MOVE', 'FIRE (*priority: target range dice)', 'CHARGE (att:def)', 'RALLY'];
  const rows = state.units.map((u) => ev.units[u.id]).filter((u): u is UnitEvaluation => u !== undefined).map((u) => cells(u, state));
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!))).join('  ');
  const out = [title, '', line(head), ...rows.map(line)];
  if (ev.warnings.length > 0) {
    out.push('', 'warnings:');
    for (const w of ev.warnings) out.push(`  ${w.unitId ? `${w.unitId}: ` : ''}${w.message} (${w.code})`);
  }
  out.push('', `${ev.shapes.length} shapes to draw`);
  return out.join('\n');
}

function breakdownLines(label: string, b: DiceBreakdown): string[] {
  const out = [`${label}: ${breakdownTotal(b)}`];
  for (const m of b.modifiers) out.push(`      ${m.dice >= 0 ? '+' : ''}${m.dice}  ${m.label}  [${m.source}]`);
  for (const m of b.limits) out.push(`      limit ${m.dice >= 0 ? '+' : ''}${m.dice}  ${m.label}  [${m.source}]`);
  return out;
}

function refusalLine(r: Refusal): string {
  return `${r.reason}${r.detail ? `: ${r.detail}` : ''}`;
}

/** One unit in detail: formation, movement, every fire and charge option with modifiers, rally, command. */
export function formatUnitDetail(state: TableState, ev: Evaluation, unitId: string): string {
  const u = ev.units[unitId];
  const unit = state.units.find((x) => x.id === unitId);
  if (!u || !unit) {
    throw new CliError(`unknown unit "${unitId}" (units: ${state.units.map((x) => x.id).join(', ')})`);
  }
  const out = [`${unit.name} (${unit.id}), ${unit.side}, ${unit.quality} ${unit.arm}, ${unit.weapon}, ${unit.standIds.length} stands`];
  out.push(`  formation: ${u.formation.formation} (${u.formation.source}, confidence ${u.formation.confidence.toFixed(2)})`);
  if (isRefusal(u.movement)) out.push(`  movement: no - ${refusalLine(u.movement)}`);
  else {
    out.push(`  movement: ${inches(u.movement.allowanceIn)} allowance`);
    for (const n of u.movement.notes) out.push(`      ${n}`);
  }
  out.push(`  fire (${u.fire.length}):`);
  for (const f of u.fire) {
    if (isRefusal(f)) out.push(`    ${f.targetUnitId}: no - ${refusalLine(f)}`);
    else {
      out.push(`    ${f.targetUnitId}${f.priority ? ' (priority)' : ''}: ${inches(f.rangeIn)}, band ${f.band}, stands ${f.eligibleStandIds.join(' ')}`);
      out.push(...breakdownLines('      dice', f.breakdown).map((l, i) => (i === 0 ? l : `  ${l}`)));
    }
  }
  out.push(`  charge (${u.charge.length}):`);
  for (const c of u.charge) {
    if (isRefusal(c)) out.push(`    ${c.targetUnitId}: no - ${refusalLine(c)}`);
    else {
      out.push(`    ${c.targetUnitId}: ${inches(c.distanceIn)}${c.enemyFlanked ? ', flanked' : ''}${c.disorderedBy.length ? `, disordered by ${c.disorderedBy.join(', ')}` : ''}`);
      out.push(...breakdownLines('      attacker', c.attacker).map((l, i) => (i === 0 ? l : `  ${l}`)));
      out.push(...breakdownLines('      defender', c.defender).map((l, i) => (i === 0 ? l : `  ${l}`)));
    }
  }
  if (isRefusal(u.rally)) out.push(`  rally: no - ${refusalLine(u.rally)}`);
  else out.push(...breakdownLines('  rally', u.rally));
  const c = u.command;
  out.push(
    `  command: brigade formation with ${c.brigadeFormationUnitIds.length ? c.brigadeFormationUnitIds.join(', ') : 'none'}` +
      `${c.commanderInRangeId ? `; commander in range ${c.commanderInRangeId}` : ''}` +
      `${c.attachedCommanderId ? `; attached ${c.attachedCommanderId}` : ''}` +
      `${c.ordersLeft !== undefined ? `; orders left ${c.ordersLeft}` : ''}`,
  );
  for (const w of ev.warnings.filter((x) => x.unitId === unitId)) out.push(`  warning: ${w.message} (${w.code})`);
  return out.join('\n');
}

function rulesetOrCliError(id: string): Ruleset {
  try {
    return getRuleset(id);
  } catch (err) {
    throw new CliError((err as Error).message);
  }
}

export async function run(args: string[]): Promise<number> {
  const { values: v, positionals } = parseCommandArgs(SPEC, args);
  const maxInputMb = v['max-input-mb'] === undefined ? DEFAULT_MAX_INPUT_MB : numberValue(v['max-input-mb'], '--max-input-mb', { above: 0, example: '64' });
  if (v.list) {
    for (const r of installedRulesets) console.log(r.id);
    return 0;
  }
  if (v.params !== undefined) {
    console.log(formatRulesetParams(rulesetOrCliError(v.params)));
    return 0;
  }
  const o = { file: positionals[0], rulesetId: v.ruleset ?? DEFAULT_RULESET_ID, unitId: v.unit, json: v.json, maxInputMb };
  if (o.file === undefined) throw new CliError('missing <state.json> (usage: muster rules <state.json> [--ruleset <id>] [--json] | --list | --params <id>; muster rules --help)');
  const ruleset = rulesetOrCliError(o.rulesetId);
  const state = await loadTableState(o.file, o.maxInputMb, ruleset);
  if (v.offered) {
    if (o.unitId === undefined) throw new CliError('--offered needs --unit <id> (the unit whose actions to list)');
    console.log(offeredText(state, ruleset, o.unitId, o.json));
    return 0;
  }
  if (v.resolve !== undefined) {
    const flags = { resolve: v.resolve, unit: o.unitId, target: v.target, units: v.units, targets: v.targets, commander: v.commander, choice: v.choice, dice: v.dice, seed: v.seed };
    const { text, exitCode } = resolveText(state, ruleset, flags, o.json);
    console.log(text);
    return exitCode;
  }
  for (const [flag, given] of [['--target', v.target], ['--units', v.units], ['--targets', v.targets], ['--commander', v.commander], ['--seed', v.seed]] as const) {
    if (given !== undefined) throw new CliError(`${flag} goes with --resolve`);
  }
  if (v.dice.length > 0 || v.choice.length > 0) throw new CliError(`${v.dice.length > 0 ? '--dice' : '--choice'} goes with --resolve`);
  const ev = evaluate(state, ruleset);
  if (o.json) console.log(JSON.stringify(ev, null, 2));
  else if (o.unitId !== undefined) console.log(formatUnitDetail(state, ev, o.unitId));
  else {
    const title = `${ruleset.name} (${ruleset.id}): ${o.file === '-' ? 'standard input' : o.file}, ${state.units.length} units, ${state.stands.length} stands`;
    console.log(formatEvaluation(state, ev, title));
  }
  return 0;
}
