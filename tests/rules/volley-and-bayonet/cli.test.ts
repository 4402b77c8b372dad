/**
 * `muster rules <scene> --ruleset volley-and-bayonet` and `--params volley-and-bayonet`: the real CLI
 * dispatcher in-process, and once as a real process for the exit code.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runRulesCli as runCli } from '../runRulesCli.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const scene = join(root, 'fixtures/rules/volley-and-bayonet/in/skirmish-at-the-fence.json');
const bare = join(root, 'fixtures/rules/volley-and-bayonet/in/skirmish-at-the-fence-no-parameters.json');

afterEach(() => vi.restoreAllMocks());

describe('muster rules --ruleset volley-and-bayonet', () => {
  it('prints a row per unit of the golden scene', async () => {
    const r = await runCli(scene, '--ruleset', 'volley-and-bayonet');
    expect(r.code).toBe(0);
    const lines = r.out.split('\n');
    expect(lines[0]).toContain('volley-and-bayonet');
    for (const id of ['r23', 'r33', 'lt', 'ra', 'ld17', 'legion', 'md1', 'md2', 'va', 'rifles', 'art']) expect(lines.some((l) => l.startsWith(`${id} `)), id).toBe(true);
  });

  it('--json gives the evaluation, with the hit numbers', async () => {
    const r = await runCli(scene, '--ruleset', 'volley-and-bayonet', '--json');
    expect(r.code).toBe(0);
    const ev = JSON.parse(r.out) as { rulesetId: string; units: Record<string, { fire: { ok: boolean; targetUnitId: string; breakdown?: { hitOn?: number } }[] }> };
    expect(ev.rulesetId).toBe('volley-and-bayonet');
    expect(ev.units.ra!.fire.find((f) => f.targetUnitId === 'md1')!.breakdown!.hitOn).toBe(4);
  });

  it('--unit explains one unit; the bare scene names the missing parameters', async () => {
    const r = await runCli(bare, '--ruleset', 'volley-and-bayonet', '--unit', 'r33');
    expect(r.code).toBe(0);
    expect(r.out).toContain('33rd Foot');
    const j = await runCli(bare, '--ruleset', 'volley-and-bayonet', '--json');
    const ev = JSON.parse(j.out) as { warnings: { code: string; parameterId?: string }[] };
    // Fire's two, then the support distance once for each unit charging guns.
    expect([...new Set(ev.warnings.filter((w) => w.code === 'parameter/missing').map((w) => w.parameterId))]).toEqual(['fire-arc-corner-deg', 'range-measured-from', 'artillery-support-in']);
  });

  it('--params lists the numbers the document does not give and where to find them', async () => {
    const r = await runCli('--params', 'volley-and-bayonet');
    expect(r.code).toBe(0);
    for (const id of ['fire-arc-corner-deg', 'range-measured-from', 'mounted-melee-hit-number', 'artillery-support-in', 'save-skirmish-order', 'troop-type', 'wing', 'strength-points-lost']) expect(r.out).toContain(id);
    expect(r.out).toMatch(/not in the document/i);
  });

  it('a bad value in the scene is exit code 2 with the path, in a real process', () => {
    const p = spawnSync(process.execPath, [join(root, 'apps/server/bin/muster.js'), 'rules', '-', '--ruleset', 'volley-and-bayonet'], {
      input: JSON.stringify({ ...JSON.parse(readFileSync(scene, 'utf8')), rulesetParameters: { 'fire-arc-corner-deg': 200 } }),
      encoding: 'utf8',
      cwd: root,
    });
    expect(p.status).toBe(2);
    expect(p.stderr).toContain('rulesetParameters.fire-arc-corner-deg');
  });
});
