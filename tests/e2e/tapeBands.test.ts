/**
 * The operator's tape and panel with the rules' own data, end to end in real headless Chromium:
 * - on the demo battle (`startLive`, the composition root `npm start` uses: real rules, game session and
 *   server on loopback), a selected unit's weapon range bands are drawn along the tape with a label at each
 *   band's end, as the evaluation publishes them (`weaponRange`), the reading says "in range" for a point
 *   and answers the fire question for a unit with both names; the panel lists the commanders' orders per
 *   turn with the rulebook section and folds far refusals into "N more out of range";
 * - on a While the Devil Rules battle (the real server over a scene the real rules evaluate), the status
 *   editor offers the rule set's declared status fields, refuses a value the declaration does not allow
 *   (nothing sent), and sends a good one in `status.rulesetStatus` to the server, which the rule set's own
 *   validation accepts; that rule set publishes no bands, so the tape has none.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, type Page } from 'playwright-core';
import type { LiveState, OperatorMessage } from '@muster/protocol';
import { evaluate, getRuleset, parseTableStateFor, rulesetStateProblems, type Stand } from '@muster/rules';
import { startLive } from '../../apps/server/src/compose/startLive.ts';
import type { RunningLive } from '../../apps/server/src/compose/liveOptions.ts';
import { startServer, type RunningServer } from '../../apps/server/src/http/createServer.ts';
import { ActionError, type ActionResult } from '../../apps/server/src/http/backend.ts';
import { ensureViewsBuilt, VIEWS_DIST } from './helpers/buildViews.ts';
import { launchChromium } from './helpers/browser.ts';
import { fixtureLiveState } from './helpers/fixtureScene.ts';
import { ARTIFACTS_DIR, colorDistance, decodeShot, describe as rgba, hexRgb } from './helpers/pixels.ts';
import { BAND_COLOURS } from '../../apps/overlay/src/pages/measureDrawing.ts';
import { SceneBackend } from './helpers/sceneBackend.ts';

const TOKEN = 'tape-bands-e2e-operator';
let browser: Browser;

beforeAll(async () => {
  ensureViewsBuilt();
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

async function openOperator(url: string, timeoutMs = 30_000): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`${url}/operator.html?token=${TOKEN}`);
  await page.waitForFunction(() => window.__muster?.ready === true, undefined, { timeout: timeoutMs }).catch((e: unknown) => {
    throw new Error(`operator page never became ready: ${String(e)}; page errors: ${errors.join(' | ')}`);
  });
  return page;
}

const toScreen = (page: Page, p: { xIn: number; yIn: number }) => page.evaluate(({ xIn, yIn }) => window.__muster!.tableToScreenPx(xIn, yIn), p);

async function clickAt(page: Page, p: { xIn: number; yIn: number }): Promise<void> {
  const at = await toScreen(page, p);
  await page.mouse.click(at.xPx, at.yPx);
}

/** A press on `from`, a drag in steps and a release on `to` (table inches). */
async function drag(page: Page, from: { xIn: number; yIn: number }, to: { xIn: number; yIn: number }): Promise<void> {
  const a = await toScreen(page, from);
  const b = await toScreen(page, to);
  await page.mouse.move(a.xPx, a.yPx);
  await page.mouse.down();
  await page.mouse.move(b.xPx, b.yPx, { steps: 6 });
  await page.mouse.up();
}

function signed(n: number): string {
  return n > 0 ? `+${n}` : n < 0 ? `−${-n}` : '±0';
}

describe('the tape on the demo battle', () => {
  let live: RunningLive;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'muster-tape-bands-'));
    live = await startLive({ source: { mode: 'demo', demoSource: 'truth' }, dataDir, host: '127.0.0.1', port: 0, viewsDir: VIEWS_DIST, operatorToken: TOKEN });
  });
  afterAll(async () => {
    await live?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('draws the selected unit’s weapon bands along the tape, labelled, and answers in words with unit names', async () => {
    const page = await openOperator(live.url);
    const snapshot = async () => (await page.evaluate(async () => (await fetch('/api/snapshot')).json())) as LiveState;
    // The rules run on a worker: wait for the first evaluation.
    await expect.poll(async () => (await snapshot()).evaluation !== null, { timeout: 30_000 }).toBe(true);
    const state = await snapshot();
    // us1 holds the fence for the whole demo (its script has one pose), so its stands stay where we click.
    const unitId = 'us1';
    const script = JSON.parse(readFileSync(join(process.cwd(), 'fixtures/demo/opening-battle.demo.json'), 'utf8')) as { units: Record<string, { keyframes: { xIn: number; yIn: number; headingDeg: number }[] }> };
    expect(new Set(script.units[unitId]!.keyframes.map((k) => `${k.xIn},${k.yIn},${k.headingDeg}`)).size).toBe(1);
    const unit = state.tableState.units.find((u) => u.id === unitId)!;
    const reading = state.evaluation!.units[unitId]!.weaponRange!;
    expect(reading.bands.length).toBeGreaterThan(1);
    // Its west-most stand: the tape runs west from it over ground no unit of the demo enters.
    const stand = state.tableState.stands.filter((s) => s.unitId === unitId).sort((a, b) => a.pose.xIn - b.pose.xIn)[0]!;
    await clickAt(page, stand.pose);
    await page.waitForFunction((u) => window.__muster?.selectedUnitId === u, unitId);

    // Commanders and their orders, with the rulebook section, in the panel's own section.
    const commanders = page.locator('#commanders .commander-reading');
    await expect.poll(() => commanders.count()).toBe(Object.keys(state.evaluation!.commanders ?? {}).length);
    for (const c of state.tableState.commanders) {
      const r = state.evaluation!.commanders![c.id]!;
      expect(await page.locator(`#commanders [data-commander="${c.id}"]`).textContent()).toBe(`${c.name}${r.quality ? ` (${r.quality})` : ''}: ${r.ordersPerTurn} order${r.ordersPerTurn === 1 ? '' : 's'} per turn. ${r.source}`);
    }

    await page.locator('button[data-mode=measure]').click();
    const end = { xIn: 2, yIn: 30 };
    await drag(page, stand.pose, end);
    const result = page.locator('#measure-result');
    await expect.poll(() => result.textContent()).toMatch(new RegExp(`^${unit.name} → point: [\\d.]+"`));
    const text = (await result.textContent())!;
    const lengthIn = Number(/point: ([\d.]+)"/.exec(text)![1]);
    // The tape starts on the stand's edge nearest the far end (the stand faces 270: its base is square to the axes).
    expect(stand.pose.headingDeg % 90).toBe(0);
    const from = {
      xIn: Math.min(Math.max(end.xIn, stand.pose.xIn - stand.widthIn / 2), stand.pose.xIn + stand.widthIn / 2),
      yIn: Math.min(Math.max(end.yIn, stand.pose.yIn - stand.depthIn / 2), stand.pose.yIn + stand.depthIn / 2),
    };
    expect(lengthIn).toBeCloseTo(Math.hypot(end.xIn - from.xIn, end.yIn - from.yIn), 1);

    // A label at the end of every band that ends on the tape, and the band the far end lies in.
    const onTape = reading.bands.filter((b) => b.upToIn <= lengthIn);
    const beyond = reading.bands.find((b) => b.upToIn > lengthIn);
    const expected = [...onTape.map((b) => `${b.label} ${signed(b.modifier!)}`), ...(beyond ? [`in ${beyond.label} ${signed(beyond.modifier!)}`] : [])];
    expect(expected.length).toBeGreaterThan(1);
    await expect.poll(() => page.locator('.band-label').allTextContents()).toEqual(expected);
    expect(await result.getAttribute('data-bands')).toBe(String(expected.length));
    // Each end-of-band label sits beside the tape at its band's distance from the stand's edge.
    const ux = (end.xIn - from.xIn) / Math.hypot(end.xIn - from.xIn, end.yIn - from.yIn);
    const uy = (end.yIn - from.yIn) / Math.hypot(end.xIn - from.xIn, end.yIn - from.yIn);
    for (const [i, b] of onTape.entries()) {
      const want = await toScreen(page, { xIn: from.xIn + ux * b.upToIn, yIn: from.yIn + uy * b.upToIn });
      const box = (await page.locator('.band-label').nth(i).boundingBox())!;
      const inchPx = Math.abs((await toScreen(page, { xIn: 1, yIn: 0 })).xPx - (await toScreen(page, { xIn: 0, yIn: 0 })).xPx);
      expect(Math.hypot(box.x + box.width / 2 - want.xPx, box.y + box.height / 2 - want.yPx)).toBeLessThan(2 * inchPx + box.width / 2);
    }
    // The second band's piece of the tape is painted in its colour (Okabe–Ito yellow, blended over the
    // cloth), beside the white line: sampled a fifth of an inch off the line on the side away from the
    // labels, 1.5" into the band (clear of the distance label in the tape's middle).
    const along = reading.bands[0]!.upToIn + 1.5;
    expect(along).toBeLessThan(Math.min(reading.bands[1]!.upToIn, lengthIn / 2 - 2.5));
    const probe = await toScreen(page, { xIn: from.xIn + ux * along + uy * 0.2, yIn: from.yIn + uy * along - ux * 0.2 });
    const want = hexRgb(BAND_COLOURS[1]);
    let seen = (await decodeShot(await page.screenshot(), 1, 'tape-bands-probe.png')).at(probe.xPx, probe.yPx);
    // (SwiftShader can drop the WebGL context on a loaded machine: take the picture again until it shows.)
    for (const deadline = Date.now() + 15_000; colorDistance(seen, want) > 90 && Date.now() < deadline; ) {
      await page.waitForTimeout(500);
      seen = (await decodeShot(await page.screenshot(), 1, 'tape-bands-probe.png')).at(probe.xPx, probe.yPx);
    }
    expect(colorDistance(seen, want), `band colour at the probe: ${rgba(seen)}`).toBeLessThan(90);
    expect(seen.b).toBeLessThan(seen.g - 60);

    // The reading for a free point: the band it lies in, by the unit's weapon.
    expect(text).toContain(beyond ? `is in range, ${beyond.label} band of its ${reading.weapon}` : `is out of range, beyond its ${reading.weapon}'s`);
    await page.screenshot({ path: join(ARTIFACTS_DIR, 'tape-bands-demo.png') });

    // Laid to an enemy unit: the fire question answered with both names, as the rules answer it. The
    // Alabama regiments march, so the tape is laid to where the newest state has one of its stands, and
    // laid again if the stand had moved on before the release.
    let answered = '';
    for (let attempt = 0; attempt < 4 && !answered; attempt++) {
      const now = await snapshot();
      const target: Stand = now.tableState.stands.find((s) => s.unitId === 'al22' && s.role === 'command')!;
      await drag(page, stand.pose, target.pose);
      await page.waitForTimeout(300);
      const t = (await result.textContent())!;
      if (t.includes(`${unit.name} → 22nd Alabama:`)) answered = t;
    }
    expect(answered).toMatch(new RegExp(`${unit.name} → 22nd Alabama: fire (in range \\(\\d+" band\\): \\d+ di(c)?e|out of range: |cannot fire at it: )`));
    expect(answered).not.toContain('al22');

    // The panel: refusals for distance alone folded into one line; the others stay in sight.
    await page.locator('button[data-mode=select]').click();
    const fireNo = state.evaluation!.units[unitId]!.fire.filter((f) => !f.ok);
    const far = fireNo.filter((f) => /out-of-(range|reach)$/.test(f.reason));
    if (far.length > 0) {
      await expect.poll(() => page.locator('.why-not-fire details.why-not-far > summary').textContent()).toMatch(new RegExp(`^\\d+ ${fireNo.length > far.length ? 'more ' : ''}out of range$`));
    }
    await page.close();
  });
});

/** SceneBackend that re-evaluates with the real While the Devil Rules after a status change, as the service would. */
class WtdrBackend extends SceneBackend {
  override perform(action: OperatorMessage): ActionResult {
    const result = super.perform(action);
    if (action.type === 'set-unit-status') {
      const ruleset = getRuleset('while-the-devil-rules');
      const problems = rulesetStateProblems(this.state().tableState, ruleset);
      if (problems.length > 0) throw new ActionError('invalid-message', problems.map((p) => `${p.path}: ${p.message}`).join('; '));
      this.publish((s) => ({ ...s, evaluation: evaluate(s.tableState, ruleset) }));
    }
    return result;
  }
}

describe('a rule set’s own status fields in the operator’s editor', () => {
  let backend: WtdrBackend;
  let server: RunningServer;
  beforeAll(async () => {
    const ruleset = getRuleset('while-the-devil-rules');
    const tableState = parseTableStateFor(JSON.parse(readFileSync(join(process.cwd(), 'fixtures/rules/while-the-devil-rules/in/battle.json'), 'utf8')), ruleset);
    const base = fixtureLiveState();
    backend = new WtdrBackend({
      ...base,
      tableState,
      evaluation: evaluate(tableState, ruleset),
      tracks: [],
      liveTrackIds: [],
      roster: { name: 'e2e while the devil rules', bindings: tableState.stands.map((s, i) => ({ markerId: 10 + i, standId: s.id })), unknownMarkerIds: [] },
      health: { ...base.health, trackedStands: tableState.stands.length, unknownTags: 0 },
    });
    server = await startServer({ backend, operatorToken: TOKEN, host: '127.0.0.1', port: 0, viewsDir: VIEWS_DIST });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('offers the declared fields, refuses a value the declaration does not allow, and sends a good one to the server', async () => {
    const specs = getRuleset('while-the-devil-rules').statusFields!;
    const unitId = 'brigade';
    const unit = backend.state().tableState.units.find((u) => u.id === unitId)!;
    const page = await openOperator(server.url, 20_000);
    const stand = backend.state().tableState.stands.find((s) => s.unitId === unitId)!;
    await clickAt(page, stand.pose);
    await page.waitForFunction((u) => window.__muster?.selectedUnitId === u, unitId);

    // One input per declared field, of the kind its type asks for.
    const editor = page.locator('#ruleset-status');
    await expect.poll(() => editor.locator('.ruleset-field').evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset.field))).toEqual(specs.map((s) => s.id));
    expect(await editor.locator('select[data-field="status"] option').allTextContents()).toEqual(['— (OK)', 'OK', 'Disordered', 'Demoralized']);
    expect(await editor.locator('input[data-field="acted"]').getAttribute('type')).toBe('checkbox');
    const bases = editor.locator('input[data-field="bases-lost"]');
    expect(await bases.getAttribute('max')).toBe('12');

    // Out of the declared range: refused in the page with the reason, nothing reaches the server.
    // Counted by type: the page's set-focus for the click may reach the server at any moment on a busy machine.
    const statusesSent = (): number => backend.performed.filter((x) => x.type === 'set-unit-status').length;
    const sentBefore = statusesSent();
    await bases.fill('13');
    await bases.dispatchEvent('change');
    await expect.poll(() => page.locator('#status-confirm').textContent()).toContain('Not sent: Bases lost (marked with chits; bases stay on the table): expected at most 12');
    expect(statusesSent()).toBe(sentBefore);

    // A good value goes in set-unit-status's status.rulesetStatus, and the rule set accepts the state.
    await bases.fill('2');
    await bases.dispatchEvent('change');
    await expect.poll(() => page.locator('#status-confirm').textContent()).toContain(`✓ ${unit.name}: bases lost`);
    // The last status sent (the page's focus message for the click may arrive after it on a busy machine).
    const sent = backend.performed.filter((a) => a.type === 'set-unit-status').at(-1)!;
    expect(sent).toMatchObject({ type: 'set-unit-status', unitId, status: { rulesetStatus: { 'bases-lost': 2 } } });
    await editor.locator('select[data-field="status"]').selectOption('disordered');
    await expect.poll(() => backend.state().tableState.units.find((u) => u.id === unitId)?.status?.rulesetStatus).toEqual({ 'bases-lost': 2, status: 'disordered' });
    expect(rulesetStateProblems(backend.state().tableState, getRuleset('while-the-devil-rules'))).toEqual([]);
    // Undo takes the last change back, and the inputs follow the status the server now has.
    await page.locator('#undo').click();
    await expect.poll(() => backend.state().tableState.units.find((u) => u.id === unitId)?.status?.rulesetStatus).toEqual({ 'bases-lost': 2 });
    await expect.poll(() => editor.locator('select[data-field="status"]').inputValue()).toBe('');
    expect(await bases.inputValue()).toBe('2');
    await editor.locator('select[data-field="status"]').selectOption('disordered');
    await expect.poll(() => backend.state().tableState.units.find((u) => u.id === unitId)?.status?.rulesetStatus).toEqual({ 'bases-lost': 2, status: 'disordered' });
    // Every view names it under the unit.
    await expect.poll(() => page.locator('.unit-label', { hasText: unit.name }).textContent()).toContain('bases lost 2');

    // This rule set publishes no weapon bands: the tape is plain, nothing guessed.
    expect(backend.state().evaluation!.units[unitId]!.weaponRange).toBeUndefined();
    await page.locator('button[data-mode=measure]').click();
    await drag(page, stand.pose, { xIn: stand.pose.xIn + 3, yIn: stand.pose.yIn - 10 });
    await expect.poll(() => page.locator('#measure-result').getAttribute('data-bands')).toBe('0');
    expect(await page.locator('.band-label').count()).toBe(0);
    await page.screenshot({ path: join(ARTIFACTS_DIR, 'ruleset-status-editor.png') });
    await page.close();
  });
});
