/**
 * The views end to end: the real service (apps/server/src/http) on loopback serving the built pages and
 * the ws, a known scene behind it, real headless Chromium drawing with WebGL (SwiftShader). Pixels are
 * read from screenshots at positions the page itself reports for table points (window.__muster), so
 * what is checked is "the stand is drawn where the state says", not how the mapping is implemented.
 * Screenshots land in test-artifacts/.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, type Page } from 'playwright-core';
import type { LiveState } from '@muster/protocol';
import { startServer, type RunningServer } from '../../apps/server/src/http/createServer.ts';
import { CHIP_PAINT } from '../../apps/overlay/src/views/tableSceneBuilder.ts';
import { LINEAR_PAINT, MAP_BACKGROUND, STYLE_PAINT, TABLE_CLOTH, UNKNOWN_SIDE_PAINT, sidePaint } from '../../apps/overlay/src/views/palette.ts';
import { invertHomography, type Homography } from '@muster/table-mapping';
import { ensureViewsBuilt, VIEWS_DIST } from './helpers/buildViews.ts';
import { BLOCKED_OFF_TABLE, BLOCKED_ON_TABLE, CLOTH_PROBE, CONFEDERATE_REACH_PROBE, DOUBLE_ARC_PROBE, HIT_CHIP_AT, CONFEDERATE_UNIT, OCCLUDED_STAND, UNION_REACH_PROBE, UNION_UNIT, UNKNOWN_TAG_AT, fixtureLiveState } from './helpers/fixtureScene.ts';
import { ARTIFACTS_DIR, blend, colorDistance, decodeShot, describe as rgba, hexRgb, type Rgba, type Shot } from './helpers/pixels.ts';
import { SceneBackend } from './helpers/sceneBackend.ts';
import { launchChromium } from './helpers/browser.ts';
import { startReplay } from '../../apps/server/src/replay/startReplay.ts';
import { GHOST_SCRIPT, writeGhostRecord } from '../replay/ghostRecord.ts';

const TOKEN = 'e2e-operator-token';
const UNION_BLUE = sidePaint('union', []).fill;
const CONFEDERATE_RED = sidePaint('confederate', []).fill;
const REACH = STYLE_PAINT.reach.fill!;
const REACH_ON_CLOTH = blend(TABLE_CLOTH, REACH.color, REACH.opacity);
/** On the left edge of the union reach polygon, clear of everything else. */
const UNION_REACH_EDGE = { xIn: 8, yIn: 14 };

let backend: SceneBackend;
let server: RunningServer;
let browser: Browser;

async function start(port = 0): Promise<RunningServer> {
  return startServer({ backend, operatorToken: TOKEN, host: '127.0.0.1', port, viewsDir: VIEWS_DIST });
}

beforeAll(async () => {
  ensureViewsBuilt();
  backend = new SceneBackend(fixtureLiveState());
  server = await start();
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function openView(path: string, viewport = { width: 1200, height: 800 }, deviceScaleFactor = 1, mobile = false): Promise<Page> {
  const context = await browser.newContext({ viewport, deviceScaleFactor, isMobile: mobile, hasTouch: mobile });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`${server.url}${path}`);
  await page.waitForFunction(() => window.__muster?.ready === true, undefined, { timeout: 20_000 }).catch((e: unknown) => {
    throw new Error(`${path} never became ready: ${String(e)}; page errors: ${errors.join(' | ')}`);
  });
  // Drawn is not yet presented: let the compositor show two frames before anyone takes a screenshot.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  return page;
}

async function waitForSeq(page: Page, seq: number): Promise<void> {
  await page.waitForFunction((s) => (window.__muster?.lastSeq ?? -1) >= s, seq, { timeout: 10_000 });
  // One more frame so the canvas holds what the hook reports.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

async function toScreen(page: Page, p: { xIn: number; yIn: number }): Promise<{ xPx: number; yPx: number }> {
  return page.evaluate(({ xIn, yIn }) => window.__muster!.tableToScreenPx(xIn, yIn), p);
}

async function colourAt(page: Page, shot: Shot, p: { xIn: number; yIn: number }): Promise<Rgba> {
  const s = await toScreen(page, p);
  return shot.at(s.xPx, s.yPx);
}

function expectColour(actual: Rgba, expected: Rgba | number, tolerance: number, what: string): void {
  const e = typeof expected === 'number' ? hexRgb(expected) : expected;
  const d = colorDistance(actual, e);
  expect(d, `${what}: got ${rgba(actual)}, expected ${rgba(e)}`).toBeLessThanOrEqual(tolerance);
}

function standCentre(state: LiveState, id: string): { xIn: number; yIn: number } {
  const s = state.tableState.stands.find((x) => x.id === id)!;
  return { xIn: s.pose.xIn, yIn: s.pose.yIn };
}

describe('views end to end', () => {
  it('map: stands, terrain and reach are drawn where the state says, and follow updates', async () => {
    const page = await openView('/');
    let shot = await decodeShot(await page.screenshot(), 1, 'map-desktop.png');
    const state = backend.state();
    for (const s of state.tableState.stands.filter((x) => x.unitId === UNION_UNIT)) {
      expectColour(await colourAt(page, shot, s.pose), UNION_BLUE, 12, `union stand ${s.id}`);
    }
    for (const s of state.tableState.stands.filter((x) => x.unitId === CONFEDERATE_UNIT)) {
      expectColour(await colourAt(page, shot, s.pose), CONFEDERATE_RED, 12, `confederate stand ${s.id}`);
    }
    expectColour(await colourAt(page, shot, CLOTH_PROBE), TABLE_CLOTH, 6, 'bare cloth');
    expectColour(await colourAt(page, shot, UNION_REACH_PROBE), REACH_ON_CLOTH, 12, 'inside the union reach polygon');
    expectColour(shot.at(4, 50), MAP_BACKGROUND, 4, 'outside the table');
    // Fire arcs wait for a unit to be selected (every unit's at once bury the terrain).
    expectColour(await colourAt(page, shot, DOUBLE_ARC_PROBE), TABLE_CLOTH, 6, 'no arcs before a unit is selected');
    const blocked = STYLE_PAINT.blocked.fill!;
    expectColour(await colourAt(page, shot, BLOCKED_ON_TABLE), blend(TABLE_CLOTH, blocked.color, blocked.opacity), 12, 'shape on the table');
    expectColour(await colourAt(page, shot, BLOCKED_OFF_TABLE), MAP_BACKGROUND, 4, 'same shape past the table edge is cut');
    await expect.poll(() => page.locator('.unit-label', { hasText: '1st Minnesota' }).count()).toBe(1);
    // The legend lists exactly the looks on screen, named for what they mean; the strip shows the turn.
    const legendRows = await page.locator('.legend .legend-row').evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset.style));
    expect(legendRows.sort()).toEqual(['blocked', 'link', 'reach', 'target-priority']);
    expect(await page.locator('.legend').textContent()).toContain('Must fire at');
    expect(await page.locator('.hud .hud-turn').textContent()).toBe('Turn 1');
    // A tag the roster does not know is marked where it is; a stand whose tag is held unseen is faded.
    expectColour(await colourAt(page, shot, UNKNOWN_TAG_AT), blend(TABLE_CLOTH, UNKNOWN_SIDE_PAINT.fill, 0.9), 12, 'unknown tag');
    expect(await page.locator('.tag-label', { hasText: 'tag 99?' }).count()).toBe(1);
    // A status chip is drawn in its colour and is not reported as an unknown tag.
    expectColour(await colourAt(page, shot, HIT_CHIP_AT), CHIP_PAINT.hit, 12, 'hit chip');
    expect(await page.locator('.tag-label').count()).toBe(1);
    expectColour(await colourAt(page, shot, standCentre(state, OCCLUDED_STAND)), blend(TABLE_CLOTH, UNION_BLUE, 0.45), 12, 'occluded stand');

    // Move the union command stand across the table: the pixel follows, the old place shows reach again.
    const movedId = `${UNION_UNIT}-s1`;
    const before = standCentre(state, movedId);
    const after = { xIn: 60, yIn: 6 };
    const next = backend.publish((s) => ({
      ...s,
      tableState: { ...s.tableState, stands: s.tableState.stands.map((x) => (x.id === movedId ? { ...x, pose: { ...after, headingDeg: 90 } } : x)) },
    }));
    await waitForSeq(page, next.seq);
    shot = await decodeShot(await page.screenshot(), 1, 'map-after-move.png');
    expectColour(await colourAt(page, shot, after), UNION_BLUE, 12, 'moved stand at its new place');
    expectColour(await colourAt(page, shot, before), REACH_ON_CLOTH, 12, 'old place of the moved stand');

    // Only what changed is redrawn (SwiftShader keeps the rest of the buffer), and the result is exactly
    // what drawing everything gives: move a stand and reshape the union reach, then compare the canvas
    // with a full redraw, pixel for pixel.
    const canvasArea = await page.evaluate(() => {
      const c = document.querySelector('.stage canvas') as HTMLCanvasElement;
      return c.clientWidth * c.clientHeight;
    });
    const shapesBefore = backend.state().evaluation!.shapes;
    const reshaped = backend.publish((s) => ({
      ...s,
      tableState: { ...s.tableState, stands: s.tableState.stands.map((x) => (x.id === movedId ? { ...x, pose: { xIn: 58, yIn: 9, headingDeg: 30 } } : x)) },
      evaluation: {
        ...s.evaluation!,
        shapes: s.evaluation!.shapes.map((sh) => (sh.kind === 'polygon' && sh.style === 'reach' && sh.unitId === UNION_UNIT ? { ...sh, vertices: sh.vertices.map((v) => ({ xIn: v.xIn + 1.5, yIn: v.yIn - 1 })) } : sh)),
      },
    }));
    await waitForSeq(page, reshaped.seq);
    const partialArea = await page.evaluate(() => window.__muster!.lastDrawnAreaPx!);
    expect(partialArea).toBeGreaterThan(0);
    expect(partialArea).toBeLessThan(canvasArea * 0.5);
    const canvasPixels = () => page.evaluate(() => (document.querySelector('.stage canvas') as HTMLCanvasElement).toDataURL('image/png'));
    const inParts = await canvasPixels();
    const draws = await page.evaluate(() => window.__muster!.canvasDraws!);
    await page.evaluate(() => window.__muster!.redrawAll!());
    await page.waitForFunction((n) => window.__muster!.canvasDraws! > n, draws);
    expect(await page.evaluate(() => window.__muster!.lastDrawnAreaPx)).toBe(canvasArea);
    expect((await canvasPixels()) === inParts, 'canvas redrawn in parts equals the full redraw').toBe(true);
    const restored = backend.publish((s) => ({
      ...s,
      tableState: { ...s.tableState, stands: s.tableState.stands.map((x) => (x.id === movedId ? { ...x, pose: { ...after, headingDeg: 90 } } : x)) },
      evaluation: { ...s.evaluation!, shapes: shapesBefore },
    }));
    await waitForSeq(page, restored.seq);

    // Tapping a stand focuses its unit: the other unit's reach goes; tapping open table brings it back.
    const tap = await toScreen(page, standCentre(backend.state(), `${UNION_UNIT}-s3`));
    await page.mouse.click(tap.xPx, tap.yPx);
    await page.waitForFunction((u) => window.__muster?.selectedUnitId === u, UNION_UNIT);
    await waitForSeq(page, backend.state().seq);
    shot = await decodeShot(await page.screenshot(), 1);
    expectColour(await colourAt(page, shot, CONFEDERATE_REACH_PROBE), TABLE_CLOTH, 8, 'other unit hidden while one is focused');
    const arc = STYLE_PAINT.arc.fill!;
    expectColour(await colourAt(page, shot, DOUBLE_ARC_PROBE), blend(TABLE_CLOTH, arc.color, arc.opacity), 10, 'the focused unit’s two overlapping arcs blend once');
    expect(await page.locator('.legend .legend-row[data-style=arc]').count()).toBe(1);
    const open = await toScreen(page, CLOTH_PROBE);
    await page.mouse.click(open.xPx, open.yPx);
    await page.waitForFunction(() => window.__muster?.selectedUnitId === null);
    await waitForSeq(page, backend.state().seq);
    shot = await decodeShot(await page.screenshot(), 1);
    expectColour(await colourAt(page, shot, CONFEDERATE_REACH_PROBE), REACH_ON_CLOTH, 12, 'everything back after tapping open table');

    // The Layers menu switches a layer off and on; the legend follows.
    await page.locator('details.layers > summary').click();
    await page.locator('input[data-layer=movement]').uncheck();
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    shot = await decodeShot(await page.screenshot(), 1, 'map-movement-off.png');
    expectColour(await colourAt(page, shot, UNION_REACH_PROBE), TABLE_CLOTH, 8, 'reach hidden with the movement layer off');
    expect(await page.locator('.legend .legend-row[data-style=reach]').count()).toBe(0);

    // Wheel zoom is gentle and bounded: five notches in stay well under the 100 px per inch jump
    // and do zoom in; many more stop at the limit.
    const pxPerIn = async () => {
      const a = await toScreen(page, { xIn: 30, yIn: 20 });
      const b = await toScreen(page, { xIn: 31, yIn: 20 });
      return Math.hypot(b.xPx - a.xPx, b.yPx - a.yPx);
    };
    const fitted = await pxPerIn();
    const centre = await toScreen(page, { xIn: 36, yIn: 24 });
    await page.mouse.move(centre.xPx, centre.yPx);
    for (let i = 0; i < 5; i++) await page.mouse.wheel(0, -100);
    await expect.poll(pxPerIn).toBeGreaterThan(fitted * 1.5);
    expect(await pxPerIn()).toBeLessThan(fitted * 3.2);
    // Zoomed in, selecting a unit brings it to the middle of the view.
    const unionStands = backend.state().tableState.stands.filter((x) => x.unitId === UNION_UNIT);
    const tapAt = await toScreen(page, standCentre(backend.state(), `${UNION_UNIT}-s3`));
    await page.mouse.click(tapAt.xPx, tapAt.yPx);
    await page.waitForFunction((u) => window.__muster?.selectedUnitId === u, UNION_UNIT);
    const unitCentre = { xIn: unionStands.reduce((a, x) => a + x.pose.xIn, 0) / unionStands.length, yIn: unionStands.reduce((a, x) => a + x.pose.yIn, 0) / unionStands.length };
    const canvas = (await page.locator('.stage canvas').boundingBox())!;
    await expect.poll(async () => Math.hypot((await toScreen(page, unitCentre)).xPx - (canvas.x + canvas.width / 2), (await toScreen(page, unitCentre)).yPx - (canvas.y + canvas.height / 2))).toBeLessThan(2);
    for (let i = 0; i < 40; i++) await page.mouse.wheel(0, -500);
    await expect.poll(pxPerIn).toBeLessThanOrEqual(fitted * 12 + 0.01);
    await page.context().close();
  });

  it('map on a phone: the table turns to fill the portrait screen and stands are still where they should be', async () => {
    const page = await openView('/map.html', { width: 390, height: 844 }, 2, true);
    const shot = await decodeShot(await page.screenshot(), 2, 'map-phone.png');
    const nearLeft = await toScreen(page, { xIn: 0, yIn: 0 });
    const farRight = await toScreen(page, { xIn: 72, yIn: 48 });
    // Turned a quarter clockwise: table x runs down the screen, y to the right (near edge on the left).
    expect(nearLeft.xPx).toBeGreaterThanOrEqual(0);
    expect(farRight.xPx).toBeLessThanOrEqual(390);
    expect(farRight.xPx - nearLeft.xPx).toBeGreaterThan(330); // the 48" depth uses the phone's width
    expect(farRight.yPx - nearLeft.yPx).toBeGreaterThan(500); // the 72" width runs down the screen
    expect(farRight.yPx).toBeLessThanOrEqual(844);
    const s = backend.state().tableState.stands.find((x) => x.id === `${CONFEDERATE_UNIT}-s2`)!;
    expectColour(await colourAt(page, shot, s.pose), CONFEDERATE_RED, 14, 'confederate stand on a phone');
    // Names are whole on the small screen: every shown label lies inside it.
    const boxes = await page.locator('.unit-label').evaluateAll((els) => els.filter((e) => (e as HTMLElement).style.visibility !== 'hidden').map((e) => e.getBoundingClientRect()).map((r) => [r.left, r.right]));
    expect(boxes.length).toBeGreaterThan(0);
    for (const [left, right] of boxes) {
      expect(left).toBeGreaterThanOrEqual(0);
      expect(right).toBeLessThanOrEqual(390);
    }
    await page.context().close();
  });

  it('operator: clicking a stand selects its unit, shows only its reach and the fire breakdown; status, dice and measure work', async () => {
    const page = await openView(`/operator.html?token=${TOKEN}`);
    let shot = await decodeShot(await page.screenshot(), 1);
    expectColour(await colourAt(page, shot, CONFEDERATE_REACH_PROBE), REACH_ON_CLOTH, 12, 'confederate reach before selection');

    const target = await toScreen(page, standCentre(backend.state(), `${UNION_UNIT}-s3`));
    await page.mouse.click(target.xPx, target.yPx);
    await page.waitForFunction((u) => window.__muster?.selectedUnitId === u, UNION_UNIT);
    await waitForSeq(page, backend.state().seq);
    shot = await decodeShot(await page.screenshot(), 1, 'operator-selected.png');
    expectColour(await colourAt(page, shot, UNION_REACH_PROBE), REACH_ON_CLOTH, 12, 'selected unit reach');
    expectColour(await colourAt(page, shot, CONFEDERATE_REACH_PROBE), TABLE_CLOTH, 8, 'other unit reach hidden while one is selected');
    const panel = page.locator('#unit-panel');
    await expect.poll(() => panel.textContent()).toContain('1st Minnesota');
    const text = (await panel.textContent())!;
    expect(text).toContain('28th Virginia');
    expect(text).toContain('3 dice');
    expect(text).toContain('Long range (12–24")');
    expect(text).toContain('The Devil to Pay, Fire, p. 23');
    // The panel is not rebuilt when what it says is unchanged (a range moving in the second decimal);
    // when it does change, keyboard focus comes back to the same control. A pool with a hit number shows
    // its expected hits and chance of at least one.
    const rollButton = page.locator('.fire-target button', { hasText: 'Roll 3' });
    await rollButton.evaluate((el) => ((el as HTMLElement & { mark?: number }).mark = 1));
    await rollButton.focus();
    await page.mouse.move(2, 700);
    const withFire = (change: (f: Record<string, unknown>) => Record<string, unknown>) =>
      backend.publish((st) => {
        const ev = st.evaluation!.units[UNION_UNIT]!;
        return { ...st, evaluation: { ...st.evaluation!, units: { ...st.evaluation!.units, [UNION_UNIT]: { ...ev, fire: ev.fire.map((f) => change(f as unknown as Record<string, unknown>)) as unknown as typeof ev.fire } } } };
      });
    await waitForSeq(page, withFire((f) => ({ ...f, rangeIn: 22.61 })).seq);
    await page.waitForTimeout(900);
    expect(await rollButton.evaluate((el) => (el as HTMLElement & { mark?: number }).mark)).toBe(1);
    await waitForSeq(page, withFire((f) => ({ ...f, rangeIn: 21.4, breakdown: { ...(f.breakdown as object), hitOn: 4 } })).seq);
    await expect.poll(() => panel.textContent(), { timeout: 5000 }).toContain('21.4"');
    expect(await rollButton.evaluate((el) => (el as HTMLElement & { mark?: number }).mark)).toBeUndefined();
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Roll 3');
    expect(await page.locator('.fire-target .odds').textContent()).toContain('≈1.5 hits · 88% ≥1 (4+)');

    // A target the rules refuse is told in words, folded and muted; the rule's code is only the tooltip.
    expect(text).toContain('Cannot charge 1 unit');
    expect(text).not.toContain('charge/out-of-reach');
    const refusal = page.locator('.why-not-charge .why-not-line');
    expect(await refusal.textContent()).toContain('28th Virginia: 22.6" away; charge reach 8"');
    expect(await refusal.getAttribute('title')).toContain('charge/out-of-reach');
    expect(await refusal.evaluate((el) => getComputedStyle(el).color)).not.toMatch(/rgb\(255, (69|180)/);

    // Status: ticking "disordered" goes to the service at once (no Apply), the answer shows beside the
    // box, and every view names it under the unit; Undo takes it back.
    await page.locator('input[data-status=disordered]').check();
    await expect.poll(() => page.locator('#status-confirm').textContent()).toContain('✓ 1st Minnesota: disordered');
    expect(backend.state().tableState.units.find((u) => u.id === UNION_UNIT)?.status?.disordered).toBe(true);
    await expect.poll(() => page.locator('.unit-label', { hasText: '1st Minnesota' }).textContent()).toContain('disordered');
    await expect.poll(() => page.locator('.legend .legend-row[data-key=status-disordered]').count()).toBe(1);
    const map = await openView('/');
    await expect.poll(() => map.locator('.unit-label', { hasText: '1st Minnesota' }).textContent()).toContain('1st Minnesota · disordered');
    await map.context().close();
    await page.locator('#undo').click();
    await expect.poll(() => backend.state().tableState.units.find((u) => u.id === UNION_UNIT)?.status?.disordered ?? false).toBe(false);
    // A hit is drawn on its stand: a white cross over the base's centre.
    const hitStand = backend.state().tableState.units.find((u) => u.id === UNION_UNIT)!.standIds[2]!;
    await page.locator(`select[data-stand="${hitStand}"]`).selectOption('1');
    await expect.poll(() => backend.state().tableState.units.find((u) => u.id === UNION_UNIT)?.status?.hitsByStand?.[hitStand] ?? 0).toBe(1);
    await waitForSeq(page, backend.state().seq);
    shot = await decodeShot(await page.screenshot(), 1, 'operator-hit-mark.png');
    // (Thin at this zoom: the 3×3 sample also takes in the cross's dark rim, so "light", not pure white.)
    const crossAt = await colourAt(page, shot, standCentre(backend.state(), hitStand));
    expect(Math.min(crossAt.r, crossAt.g, crossAt.b), `hit cross at ${rgba(crossAt)}`).toBeGreaterThan(120);
    await page.locator(`select[data-stand="${hitStand}"]`).selectOption('0');
    await expect.poll(() => backend.state().tableState.units.find((u) => u.id === UNION_UNIT)?.status?.hitsByStand?.[hitStand] ?? 0).toBe(0);

    // Dice from the fire row: the service's seeded roller, shown with hits marked, on the map's strip
    // too, and logged.
    await page.locator('.fire-target button', { hasText: 'Roll 3' }).click();
    await expect.poll(() => page.locator('#dice .die').count()).toBe(3);
    await expect.poll(() => page.locator('.hud .hud-roll .die').count()).toBe(3);
    const hits = Number(/(\d+) hit/.exec((await page.locator('#dice').textContent())!)![1]);
    expect(await page.locator('#dice .die.hit').count()).toBe(hits);
    await expect.poll(() => page.locator('#log').textContent()).toContain('fire: 1st Minnesota → 28th Virginia');

    // Measure between the two front stands, edge to edge, tolerance stated.
    await page.locator('button[data-mode=measure]').click();
    const a = await toScreen(page, standCentre(backend.state(), `${UNION_UNIT}-s3`));
    const b = await toScreen(page, standCentre(backend.state(), `${CONFEDERATE_UNIT}-s1`));
    await page.mouse.click(a.xPx, a.yPx);
    await page.mouse.click(b.xPx, b.yPx);
    // Union s3 front edge y=12.5, x 18..20; confederate s1 front edge y=35.5, x 40..42: gap (20,12.5)→(40,35.5).
    const expected = Math.hypot(20, 23).toFixed(2);
    await expect.poll(() => page.locator('#measure-result').textContent()).toContain(`${expected}" ±0.06" from tracking`);
    expect(await page.locator('#measure-result').textContent()).toContain('1st Minnesota → 28th Virginia');
    await page.screenshot({ path: join(ARTIFACTS_DIR, 'operator-measure.png') });

    // Point to point like a tape: the reading follows the drag before the button is let go.
    const p0 = await toScreen(page, { xIn: 50, yIn: 6 });
    const p1 = await toScreen(page, { xIn: 56, yIn: 14 });
    const pMid = await toScreen(page, { xIn: 53, yIn: 6 });
    await page.mouse.move(p0.xPx, p0.yPx);
    await page.mouse.down();
    await page.mouse.move(pMid.xPx, pMid.yPx, { steps: 4 });
    await expect.poll(() => page.locator('#measure-result').textContent()).toMatch(/point → point: 3\.\d\d"/);
    await page.mouse.move(p1.xPx, p1.yPx, { steps: 4 });
    await page.mouse.up();
    const dragged = Number(/point → point: ([\d.]+)"/.exec((await page.locator('#measure-result').textContent())!)![1]);
    expect(dragged).toBeCloseTo(10, 0);
    // The tape was redrawn only where it was and is while dragged: the canvas equals a full redraw.
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    expect(await page.evaluate(() => window.__muster!.lastDrawnAreaPx!)).toBeLessThan(await page.evaluate(() => {
      const c = document.querySelector('.stage canvas') as HTMLCanvasElement;
      return c.clientWidth * c.clientHeight;
    }));
    const taped = await page.evaluate(() => (document.querySelector('.stage canvas') as HTMLCanvasElement).toDataURL('image/png'));
    const drawsSoFar = await page.evaluate(() => window.__muster!.canvasDraws!);
    await page.evaluate(() => window.__muster!.redrawAll!());
    await page.waitForFunction((n) => window.__muster!.canvasDraws! > n, drawsSoFar);
    expect((await page.evaluate(() => (document.querySelector('.stage canvas') as HTMLCanvasElement).toDataURL('image/png'))) === taped, 'tape drawn in parts equals a full redraw').toBe(true);

    // Next turn: the service publishes it and the panel shows it.
    await page.locator('button[title="Next turn"]').click();
    await expect.poll(() => page.locator('#turn').textContent()).toBe('2');

    // Assign the unknown tag to a roster stand.
    await page.locator('#tags select').selectOption(OCCLUDED_STAND);
    await page.locator('#tags button').click();
    await expect.poll(() => backend.performed.some((a) => a.type === 'assign-tag' && a.markerId === 99 && a.standId === OCCLUDED_STAND)).toBe(true);

    // Draw a wall across open cloth: the service stores it and the map draws it there.
    await page.locator('button[data-mode=draw]').click();
    await page.locator('#draw-kind').selectOption('linear:wall');
    const wallFrom = { xIn: 58, yIn: 10 };
    const wallTo = { xIn: 70, yIn: 10 };
    for (const p of [wallFrom, wallTo]) {
      const at = await toScreen(page, p);
      await page.mouse.click(at.xPx, at.yPx);
    }
    const wallsBefore = backend.state().tableState.terrain.linear.length;
    await page.locator('#draw-finish').click();
    await expect.poll(() => backend.state().tableState.terrain.linear.length).toBe(wallsBefore + 1);
    const wall = backend.state().tableState.terrain.linear.at(-1)!;
    expect(wall.kind).toBe('wall');
    expect(wall.id).toMatch(/^wall-\d+$/);
    expect(wall.points[0]!.xIn).toBeCloseTo(wallFrom.xIn, 0);
    // The same wall again is refused, saying which piece is already there.
    await expect.poll(() => page.locator('#message').textContent()).toContain(`Added ${wall.id}`);
    for (const p of [wallFrom, wallTo]) {
      const at = await toScreen(page, p);
      await page.mouse.click(at.xPx, at.yPx);
    }
    await page.locator('#draw-finish').click();
    await expect.poll(() => page.locator('#message').textContent()).toContain(`${wall.id} is already there`);
    expect(backend.state().tableState.terrain.linear.length).toBe(wallsBefore + 1);
    await page.keyboard.press('Escape');
    await waitForSeq(page, backend.state().seq);
    shot = await decodeShot(await page.screenshot(), 1, 'operator-drawn-wall.png');
    const wallMid = { xIn: (wall.points[0]!.xIn + wall.points.at(-1)!.xIn) / 2, yIn: (wall.points[0]!.yIn + wall.points.at(-1)!.yIn) / 2 };
    expect(wallMid.xIn).toBeCloseTo(64, 0);
    // The wall is about 3 px wide: the best of the probes one pixel either side of its centre line.
    const wallAt = await toScreen(page, wallMid);
    const across = [-1, 0, 1].map((dy) => shot.at(wallAt.xPx, wallAt.yPx + dy));
    const nearest = across.reduce((a, b) => (colorDistance(b, hexRgb(LINEAR_PAINT.wall.color)) < colorDistance(a, hexRgb(LINEAR_PAINT.wall.color)) ? b : a));
    expectColour(nearest, LINEAR_PAINT.wall.color, 20, 'the drawn wall');

    // Drag the wall's far end up the table: the edited terrain goes to the service.
    const grab = await toScreen(page, wallTo);
    const drop = await toScreen(page, { xIn: 70, yIn: 16 });
    await page.mouse.move(grab.xPx, grab.yPx);
    await page.mouse.down();
    await page.mouse.move(drop.xPx, drop.yPx, { steps: 5 });
    await page.mouse.up();
    await expect.poll(() => backend.state().tableState.terrain.linear.find((l) => l.id === wall.id)?.points[1]?.yIn ?? 0).toBeGreaterThan(15.5);
    const end = backend.state().tableState.terrain.linear.find((l) => l.id === wall.id)!.points[1]!;
    expect(end.xIn).toBeCloseTo(70, 0);
    expect(end.yIn).toBeCloseTo(16, 0);

    // Removing asks first; Undo brings the piece back.
    const remove = page.locator(`li[data-terrain="${wall.id}"] button.remove`);
    await remove.click();
    await expect.poll(() => remove.textContent()).toBe('Remove?');
    expect(backend.state().tableState.terrain.linear.some((l) => l.id === wall.id)).toBe(true);
    await remove.click();
    await expect.poll(() => backend.state().tableState.terrain.linear.some((l) => l.id === wall.id)).toBe(false);
    await page.keyboard.press('Control+z');
    await expect.poll(() => backend.state().tableState.terrain.linear.some((l) => l.id === wall.id)).toBe(true);

    // Keyboard: ? lists the shortcuts, m picks the tape measure.
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('?');
    await expect.poll(() => page.locator('#shortcuts').isVisible()).toBe(true);
    expect(await page.locator('#shortcuts').textContent()).toContain('Measure');
    await page.keyboard.press('m');
    await expect.poll(() => page.locator('button[data-mode=measure]').getAttribute('class')).toContain('active');
    await page.context().close();
  });

  it('operator on a phone stacks the panel under the map', async () => {
    const page = await openView(`/operator.html?token=${TOKEN}`, { width: 390, height: 844 }, 2, true);
    const stageBox = await page.locator('.stage').boundingBox();
    const panelBox = await page.locator('.panel').boundingBox();
    expect(panelBox!.y).toBeGreaterThanOrEqual(stageBox!.y + stageBox!.height - 1);
    expect(stageBox!.width).toBeGreaterThan(380);
    await page.screenshot({ path: join(ARTIFACTS_DIR, 'operator-phone.png'), fullPage: true });
    await page.context().close();
  });

  it('projector: black, annotations only, drawn through the calibration homography', async () => {
    // A projector 1280×800 looking at the table slightly keystoned.
    const h = [15.5, 1.2, 70, 0.4, -15.2, 760, 0.0006, 0.0011, 1];
    const page = await openView(`/projector.html?h=${h.join(',')}&w=1280&hpx=800&outline=1&show=all`, { width: 1280, height: 800 });
    await waitForSeq(page, backend.state().seq);
    const shot = await decodeShot(await page.screenshot(), 1, 'projector.png');
    // The alignment outline runs along the table's edges.
    expectColour(await colourAt(page, shot, { xIn: 0, yIn: 40 }), 0xffffff, 30, 'table edge outline');
    const probe = await toScreen(page, UNION_REACH_PROBE);
    const w = 0.0006 * UNION_REACH_PROBE.xIn + 0.0011 * UNION_REACH_PROBE.yIn + 1;
    expect(probe.xPx).toBeCloseTo((15.5 * 11 + 1.2 * 18 + 70) / w, 3);
    expect(probe.yPx).toBeCloseTo((0.4 * 11 - 15.2 * 18 + 760) / w, 3);
    // Outlines, not washes: inside the reach is dark, its edge is lit in the reach colour.
    expectColour(shot.at(probe.xPx, probe.yPx), 0x000000, 2, 'no wash inside the reach');
    const stroke = STYLE_PAINT.reach.stroke;
    expectColour(await colourAt(page, shot, UNION_REACH_EDGE), blend(0x000000, stroke.color, stroke.opacity), 40, 'reach outline on black');
    expectColour(await colourAt(page, shot, CLOTH_PROBE), 0x000000, 2, 'no cloth on the projector');
    expectColour(await colourAt(page, shot, DOUBLE_ARC_PROBE), 0x000000, 2, 'no wash inside the arcs');
    // Stands are never lit (the real ones are under the light): dark at every stand centre.
    for (const c of backend.state().tableState.stands) expectColour(await colourAt(page, shot, c.pose), 0x000000, 2, `no light on stand ${c.id}`);
    await page.context().close();
  });

  it('stream overlay: transparent where there is nothing to show', async () => {
    const page = await openView('/overlay.html', { width: 960, height: 540 });
    const shot = await decodeShot(await page.screenshot({ omitBackground: true }), 1, 'overlay.png');
    expect((await colourAt(page, shot, CLOTH_PROBE)).a).toBeLessThan(3);
    const reach = await colourAt(page, shot, UNION_REACH_PROBE);
    expect(reach.a).toBeGreaterThan(40);
    expect(reach.g).toBeGreaterThan(reach.r);
    // A lower third a streamer can place, and a legend; text at least 18 px on the stream.
    expect(await page.locator('.hud.lower-third.bottom-left .hud-turn').textContent()).toBe(`Turn ${backend.state().turn}`);
    expect(await page.locator('.legend').textContent()).toContain('Move: where it can go');
    const fontPx = await page.locator('.unit-label').first().evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
    expect(fontPx).toBeGreaterThanOrEqual(18);

    // Once the camera is solved, annotations land where the table point is in the camera frame.
    const tableToImage: Homography = [20, 1.5, 200, 0.3, -18, 1000, 0.0002, 0.0004, 1];
    const next = backend.publish((st) => ({
      ...st,
      profile: { ...st.profile, frameWidthPx: 1920, frameHeightPx: 1080, homography: [...invertHomography(tableToImage)] },
    }));
    await waitForSeq(page, next.seq);
    const cam = await decodeShot(await page.screenshot({ omitBackground: true }), 1, 'overlay-camera.png');
    const p = UNION_REACH_PROBE;
    const w = 0.0002 * p.xIn + 0.0004 * p.yIn + 1;
    // The source is 960×540, the frame 1920×1080: half scale.
    const expected = { xPx: (0.5 * (20 * p.xIn + 1.5 * p.yIn + 200)) / w, yPx: (0.5 * (0.3 * p.xIn - 18 * p.yIn + 1000)) / w };
    const hook = await toScreen(page, p);
    expect(hook.xPx).toBeCloseTo(expected.xPx, 2);
    expect(hook.yPx).toBeCloseTo(expected.yPx, 2);
    const onVideo = cam.at(expected.xPx, expected.yPx);
    expect(onVideo.a).toBeGreaterThan(40);
    expect(onVideo.g).toBeGreaterThan(onVideo.r);
    await page.context().close();
  });

  it('shows a disconnected banner when the service goes away and recovers when it is back', async () => {
    const page = await openView('/');
    const banner = page.locator('#connection-banner');
    expect(await banner.isVisible()).toBe(false);
    const port = server.port;
    await server.close();
    await banner.waitFor({ state: 'visible', timeout: 5000 });
    await page.screenshot({ path: join(ARTIFACTS_DIR, 'map-disconnected.png') });
    server = await start(port);
    await banner.waitFor({ state: 'hidden', timeout: 10_000 });
    await waitForSeq(page, backend.state().seq);
    await page.context().close();
  });
});

describe('the replay timeline bar', () => {
  it('never hides the table: the map and operator fit the table below it, on a desktop and on a phone', async () => {
    const dir = await writeGhostRecord();
    const replay = await startReplay({ dataDir: dir.path, port: 0, speed: 0, from: String(GHOST_SCRIPT.length - 1), viewsDir: VIEWS_DIST, operatorToken: TOKEN });
    try {
      for (const [path, viewport] of [
        ['/', { width: 1600, height: 900 }],
        [`/operator.html?token=${TOKEN}`, { width: 1600, height: 900 }],
        ['/', { width: 390, height: 844 }],
      ] as const) {
        const context = await browser.newContext({ viewport, isMobile: viewport.width < 500, hasTouch: viewport.width < 500 });
        const page = await context.newPage();
        await page.goto(`${replay.url}${path}`);
        await page.waitForFunction(() => window.__muster?.ready === true, undefined, { timeout: 20_000 });
        const bar = page.locator('#replay-timeline');
        await bar.waitFor({ state: 'visible' });
        // The fit follows the bar's arrival (it comes after the first frame, from GET /api/replay).
        await expect
          .poll(async () => {
            const barBottom = (await bar.boundingBox())!;
            const top = await page.evaluate(() => {
              const a = window.__muster!.tableToScreenPx(0, 0);
              const b = window.__muster!.tableToScreenPx(72, 48);
              return Math.min(a.yPx, b.yPx);
            });
            return top - (barBottom.y + barBottom.height);
          }, { message: `${path} at ${viewport.width}×${viewport.height}: the table's top edge under the bar` })
          .toBeGreaterThanOrEqual(0);
        await page.screenshot({ path: join(ARTIFACTS_DIR, `timeline-${viewport.width}-${path === '/' ? 'map' : 'operator'}.png`) });
        await context.close();
      }
    } finally {
      await replay.stop();
      dir.remove();
    }
  });
});

