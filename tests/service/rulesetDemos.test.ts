/**
 * Each rule set's own demo battle, on a real service on loopback: `muster start --ruleset <id>` (no
 * `--demo`) plays `fixtures/demo/<id>.demo.json`, which moves that rule set's example army, so the army
 * fits the rule set (no roster problems, no unit without a troop type) and every unit is evaluated; the
 * While the Devil Rules battle's pike & shot blocks read as the guide's formations. And switching the
 * opening battle (an American Civil War army) to While the Devil Rules or Fire and Fury live never blanks
 * the views: the evaluation is there, with a warning per unit naming what its army file lacks.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PROTOCOL_VERSION, type LiveState } from '@muster/protocol';
import { startLive } from '../../apps/server/src/compose/startLive.ts';
import { checkDemoScript, scenePoses } from '../../apps/server/src/demo/demoScript.ts';
import { loadRoster } from '../../apps/server/src/roster/loadRoster.ts';
import { REPO_ROOT, rulesetDemoScript } from '../../apps/server/src/compose/liveOptions.ts';
import { readFileSync } from 'node:fs';
import { TestClient, startDemo, tempDir } from './helpers.ts';
import { untilHeld } from './heldState.ts';

const TOKEN = 'ruleset-demos-token';
const dir = tempDir('muster-ruleset-demos-');
afterAll(() => dir.remove());

function until(client: TestClient, ok: (s: LiveState) => boolean, what: string, timeoutMs = 30_000): Promise<LiveState> {
  return untilHeld(client, ok, what, timeoutMs);
}

/** Every unit of the army on the table and evaluated by `rulesetId`. */
const allEvaluated = (rulesetId: string) => (s: LiveState) =>
  s.evaluation?.rulesetId === rulesetId && s.tableState.units.length > 0 && s.tableState.units.every((u) => u.standIds.length > 0 && s.evaluation!.units[u.id] !== undefined);

describe('a demo battle for each rule set (--ruleset without --demo)', () => {
  for (const rulesetId of ['while-the-devil-rules', 'fire-and-fury-regimental', 'volley-and-bayonet']) {
    it(`${rulesetId}: plays its own example army, which fits the rule set`, async () => {
      const script = rulesetDemoScript(rulesetId);
      expect(existsSync(script)).toBe(true);
      const live = await startLive({ source: { mode: 'demo', demoSource: 'truth', fps: 20, speed: 4 }, dataDir: dir.path, host: '127.0.0.1', port: 0, operatorToken: TOKEN, rulesetId });
      try {
        // Its own game, apart from the opening battle's.
        expect(live.store.dir).toBe(join(dir.path, `demo-${rulesetId}`));
        const viewer = await TestClient.connect(live.url);
        const s = await until(viewer, allEvaluated(rulesetId), `every unit evaluated by ${rulesetId}`);
        const demo = JSON.parse(readFileSync(script, 'utf8')) as { roster: string };
        const roster = await loadRoster(join(REPO_ROOT, demo.roster));
        expect(s.tableState.units.map((u) => u.id).sort()).toEqual(roster.units.map((u) => u.id).sort());
        expect(s.ruleset?.current?.id).toBe(rulesetId);
        expect(s.ruleset?.rosterProblems).toEqual([]);
        const codes = s.evaluation!.warnings.map((w) => w.code);
        expect(codes).not.toContain('unit/no-troop-type');
        expect(codes).not.toContain('unit/no-stands');
        expect(s.health.warnings.some((w) => w.startsWith('rules failed'))).toBe(false);
        if (rulesetId === 'while-the-devil-rules') {
          // The blocks and wedges of pike & shot stand as the guide draws them (Formations).
          const formationOf = (id: string) => s.evaluation!.units[id]!.formation;
          expect(formationOf('yellow-brigade')).toMatchObject({ name: 'Swedish brigade' });
          expect(formationOf('tilly-tercio')?.name).toMatch(/^Veteran tercio/);
          expect(formationOf('forlorn-hope')?.name).toMatch(/swarm/);
          for (const u of Object.values(s.evaluation!.units)) expect(u.formation?.confidence).toBeGreaterThanOrEqual(0.9);
        }
        await viewer.close();
      } finally {
        await live.stop();
      }
    }, 90_000);
  }

  it('the While the Devil Rules script checks against its roster and brings Pappenheim\'s cuirassiers into contact', async () => {
    const roster = await loadRoster(join(REPO_ROOT, 'fixtures/rosters/while-the-devil-rules-example.yaml'));
    const script = checkDemoScript(JSON.parse(readFileSync(rulesetDemoScript('while-the-devil-rules'), 'utf8')), roster);
    // At the end of the loop the cuirassiers' front edge touches the commanded shot's: centres one base
    // depth (40 mm) apart on the same line.
    const end = scenePoses(script, roster, script.loopS);
    const y = (unitId: string) => {
      const stands = roster.units.find((u) => u.id === unitId)!.stands.map((st) => end.stands.get(st.id)!);
      return stands.reduce((a, p) => a + p.yIn, 0) / stands.length;
    };
    expect(y('pappenheim-cuirassiers') - y('commanded-shot')).toBeCloseTo(40 / 25.4, 3);
    // A stand offset naming a tag the unit does not have is refused with the path.
    const bad = JSON.parse(readFileSync(rulesetDemoScript('while-the-devil-rules'), 'utf8')) as { units: Record<string, { standOffsets?: Record<string, unknown> }> };
    bad.units['tilly-tercio']!.standOffsets!['99'] = { rightIn: 0, forwardIn: 0 };
    expect(() => checkDemoScript(bad, roster, 'wtdr.demo.json')).toThrow(/wtdr\.demo\.json: units\.tilly-tercio\.standOffsets\.99: no stand of this unit has tag 99/);
  });
});

describe('switching the opening battle to another rule set live', () => {
  it('keeps every view fed: the evaluation is there, each unit says what its army file lacks', async () => {
    const own = tempDir('muster-switch-wtdr-');
    const live = await startDemo(own.path, { token: TOKEN });
    try {
      const operator = await TestClient.connect(live.url);
      await operator.request({ type: 'hello', protocolVersion: PROTOCOL_VERSION, token: TOKEN, requestId: 'h' });
      await until(operator, allEvaluated('devil-to-pay'), 'The Devil to Pay first');
      for (const rulesetId of ['while-the-devil-rules', 'fire-and-fury-regimental']) {
        expect(await operator.request({ type: 'set-ruleset', rulesetId, requestId: rulesetId })).toMatchObject({ type: 'ack', action: 'set-ruleset' });
        const s = await until(operator, allEvaluated(rulesetId), `every unit evaluated by ${rulesetId}`);
        expect(s.evaluation).not.toBeNull();
        expect(s.health.warnings.some((w) => w.startsWith('rules failed'))).toBe(false);
        // Something to draw beyond the warnings (formations, command, army morale).
        expect(s.evaluation!.shapes.length).toBeGreaterThan(0);
        if (rulesetId === 'while-the-devil-rules') {
          // Each unit names its missing troop type; the rest of the rules (command, army morale) still run.
          const noType = s.evaluation!.warnings.filter((w) => w.code === 'unit/no-troop-type').map((w) => w.unitId).sort();
          expect(noType).toEqual(s.tableState.units.map((u) => u.id).sort());
          // The army file's gaps in players' words: the unit, what is left out, what to add.
          expect(s.ruleset?.rosterProblems[0]).toMatch(/^units\[0\] \(al19\)\.rulesetFields\.troop-type: missing .*: 19th Alabama has no Troop type for While the Devil Rules, so its formation, movement, fire, charges are left out; add rulesetFields: \{ troop-type: … \} \(one of dutch-battalion, .*camp\) to it in the army file$/);
          expect(Object.values(s.evaluation!.units).every((u) => u.command !== undefined && u.morale !== undefined)).toBe(true);
          expect(s.evaluation!.shapes.some((sh) => sh.layer === 'command')).toBe(true);
        }
      }
      await operator.close();
    } finally {
      await live.stop();
      own.remove();
    }
  }, 90_000);
});
