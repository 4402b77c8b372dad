/**
 * `muster rules <state.json> --resolve …` run as a user would (the real bin): what a unit may roll for, the
 * outcome of entered faces and of the seeded roller, as text and JSON, and bad input refused in one line.
 * The Devil to Pay's fire resolves; the flow is generic over `Ruleset.resolution`.
 */
import { describe, expect, it } from 'vitest';
import { createRng, diceForAction, getRuleset, resolveAction, rollRequestedDice, type DiceRequest, type Outcome } from '@muster/rules';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT, muster } from './runMuster.ts';

const SCENE = 'fixtures/rules/in/fire-across-fence.json';
const state = JSON.parse(readFileSync(join(REPO_ROOT, SCENE), 'utf8'));
const dtp = getRuleset('devil-to-pay');
const fire = { kind: 'fire', unitId: 'blue', targetUnitId: 'grey' };
const requests = diceForAction(dtp, state, fire) as DiceRequest[];

describe('muster rules --resolve', () => {
  it('--offered lists what a unit may roll for, with the dice, as --resolve arguments', async () => {
    const r = await muster(['rules', SCENE, '--offered', '--unit', 'blue']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`--resolve '${JSON.stringify(fire)}'`);
    expect(r.stdout).toMatch(new RegExp(`fire: .*${requests[0]!.count} d6, hits on 4\\+`));
    const json = await muster(['rules', SCENE, '--offered', '--unit', 'blue', '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ rulesetId: 'devil-to-pay', unitId: 'blue', dice: { sides: 6 }, actions: expect.arrayContaining([{ action: fire, dice: requests }]) });
  });

  it('entered faces by flags and by JSON give the engine’s outcome, as text and JSON', async () => {
    const faces = [6, 6, 5, 1, 2, 3, 4, 4].slice(0, requests[0]!.count);
    const expected = resolveAction(dtp, state, fire, { fire: faces }) as Outcome;
    const text = await muster(['rules', SCENE, '--resolve', 'fire', '--unit', 'blue', '--target', 'grey', '--dice', faces.join(',')]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`result: ${expected.result}`);
    expect(text.stdout).toContain(expected.summary);
    for (const s of expected.steps) expect(text.stdout).toContain(`${s.text}  [${s.source}]`);
    expect(text.stdout).toContain(`status: ${JSON.stringify(expected.effects[0]!.status)}`);
    const json = await muster(['rules', SCENE, '--resolve', JSON.stringify(fire), '--dice', JSON.stringify({ fire: faces }), '--json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual(JSON.parse(JSON.stringify(expected)));
  });

  it('--seed rolls with the seeded roller: the same seed, the same faces', async () => {
    const expectedFaces = rollRequestedDice(requests, createRng(42)).fire;
    const r = await muster(['rules', SCENE, '--resolve', 'fire', '--unit', 'blue', '--target', 'grey', '--seed', '42', '--json']);
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as Outcome).rolls[0]!.faces).toEqual(expectedFaces);
  });

  it('refuses bad input in one line saying what to give', async () => {
    const cases: [string[], RegExp][] = [
      [['--resolve', 'fire', '--unit', 'blue', '--target', 'grey'], /this roll needs dice \(fire: \d+ d6\): give the faces with --dice fire=… or roll them with --seed <n>/],
      [['--resolve', 'fire', '--unit', 'blue', '--target', 'grey', '--dice', '7'], /dice "fire": .*(7 is not a face of a d6|needed)/],
      [['--resolve', 'fire', '--unit', 'blue', '--target', 'grey', '--dice', 'x,y'], /--dice: faces are whole numbers/],
      [['--resolve', 'volley', '--unit', 'blue', '--target', 'grey', '--dice', '1'], /unknown action kind "volley" \(this rule set resolves: fire/],
      [['--resolve', 'fire', '--unit', 'blue', '--dice', '1'], /"fire" needs targetUnitId/],
      [['--resolve', 'fire', '--unit', 'nobody', '--target', 'grey', '--dice', '1'], /unit "nobody" is not on this table/],
      [['--resolve', '{"kind":', '--dice', '1'], /--resolve is not valid JSON/],
      [['--offered'], /--offered needs --unit/],
      [['--target', 'grey'], /--target goes with --resolve/],
    ];
    for (const [args, message] of cases) {
      const r = await muster(['rules', SCENE, ...args]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(message);
    }
  });

  it('documents --resolve, --dice, --seed and --offered in --help', async () => {
    const r = await muster(['rules', '--help']);
    expect(r.code).toBe(0);
    for (const flag of ['--resolve <kind|json>', '--dice <faces>', '--seed <n>', '--offered', '--target <id>', '--choice <key=value>']) expect(r.stdout).toContain(flag);
  });
});
