/**
 * After the roll in real Chromium against the real server and rules (the opening-battle demo two battle
 * minutes in, The Devil to Pay): the operator selects the 1st US by clicking a stand, sees its fire at the
 * 19th Alabama with the dice, rolls with the service's roller, enters dice (a wrong face refused in words,
 * nothing logged), sees the outcome with its steps and sections, applies it (the Alabama's hits are saved
 * and published, the map's game strip shows the outcome), undoes it with Undo, and clears it.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { diceForAction, getRuleset, resolveAction, statusChangesOf, type DiceRequest, type Outcome } from '@muster/rules';
import sharp from 'sharp';
import type { LoggedOutcome } from '@muster/protocol';
import { startServer, type RunningServer } from '../../apps/server/src/http/createServer.ts';
import { demoPipelineAt } from '../service/demoPipelineAt.ts';
import { tempDir } from '../service/helpers.ts';
import { ensureViewsBuilt, VIEWS_DIST } from './helpers/buildViews.ts';
import { ARTIFACTS_DIR } from './helpers/pixels.ts';
import { launchChromium } from './helpers/browser.ts';

const TOKEN = 'e2e-after-the-roll';
const dir = tempDir('muster-after-roll-e2e-');
let live: Awaited<ReturnType<typeof demoPipelineAt>>;
let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  ensureViewsBuilt();
  live = await demoPipelineAt(join(dir.path, 'data'), 120, getRuleset('devil-to-pay'), 'after-the-roll-e2e');
  server = await startServer({ backend: live.pipeline, operatorToken: TOKEN, host: '127.0.0.1', port: 0, viewsDir: VIEWS_DIST });
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  live?.close();
  dir.remove();
});

async function open(path: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`${server.url}${path}`);
  await page.waitForFunction(() => window.__muster?.ready === true, undefined, { timeout: 30_000 }).catch((e: unknown) => {
    throw new Error(`${path} never became ready: ${String(e)}; page errors: ${errors.join(' | ')}`);
  });
  return page;
}

async function selectUnitByClick(page: Page, unitId: string): Promise<void> {
  const stand = live.pipeline.state().tableState.stands.find((s) => s.unitId === unitId)!;
  const at = await page.evaluate(({ xIn, yIn }) => window.__muster!.tableToScreenPx(xIn, yIn), stand.pose);
  await page.mouse.click(at.xPx, at.yPx);
  await page.waitForFunction((u) => window.__muster?.selectedUnitId === u, unitId);
}

const dtp = getRuleset('devil-to-pay');
const alabamaStatus = () => live.pipeline.state().tableState.units.find((u) => u.id === 'al19')?.status;

describe('after the roll on the operator page', () => {
  it('roll, enter dice, see the outcome, apply, undo, clear', async () => {
    const operator = await open(`/operator.html?token=${TOKEN}`);
    const map = await open('/map.html');
    await selectUnitByClick(operator, 'us1');

    const row = operator.locator('#roll-actions .roll-action[data-kind="fire"][data-target="al19"]');
    await expect.poll(() => row.count(), { timeout: 20_000 }).toBe(1);
    const option = live.pipeline.state().evaluation!.units.us1!.fire.find((o) => o.targetUnitId === 'al19')!;
    const count = option.ok ? option.breakdown.dice : -1;
    expect(await row.textContent()).toContain(`${count} d6, hits on 4+`);
    expect(await operator.locator('#after-the-roll .dice-kind').textContent()).toMatch(/^Dice: d6/);

    // Roll: the service's seeded roller; the outcome shows with the faces it rolled.
    await row.locator('button.roll').click();
    await expect.poll(() => operator.locator('#outcome .outcome-result').textContent(), { timeout: 10_000 }).toMatch(/· rolled$/);
    const rolled = live.session.recentLog().at(-1)!;
    expect(rolled.kind).toBe('outcome');
    const rolledFaces = rolled.kind === 'outcome' ? rolled.outcome.rolls[0]!.faces : [];
    expect(await operator.locator('#outcome .outcome-roll').first().textContent()).toContain(rolledFaces.join(' '));

    // Enter dice: a face not on a d6 is refused in words and nothing is logged; then the players' sixes.
    const logged = live.session.log.count();
    await row.locator('button.enter').click();
    const input = operator.locator('#enter-dice input[data-group="fire"]');
    await input.fill([7, ...Array(count - 1).fill(1)].join(' '));
    await operator.locator('#enter-dice button.resolve').click();
    await expect.poll(() => operator.locator('#enter-dice .enter-error').textContent()).toContain('7 is not a face of a d6');
    expect(live.session.log.count()).toBe(logged);
    await input.fill(Array(count).fill(6).join(' '));
    await operator.locator('#enter-dice button.resolve').click();
    await expect.poll(() => operator.locator('#outcome .outcome-result').textContent(), { timeout: 10_000 }).toBe(`${count} hits · dice entered`);
    expect(await operator.locator('#enter-dice').isHidden()).toBe(true);
    expect(await operator.locator('#outcome .outcome-steps').textContent()).toContain('Fire (p. 23)');
    const effects = (await operator.locator('#outcome .outcome-effects').textContent())!;
    expect(effects).toContain(live.pipeline.state().tableState.units.find((u) => u.id === 'al19')!.name);

    // The map's game strip shows what the roll did.
    await expect.poll(() => map.locator('.hud-outcome').textContent(), { timeout: 10_000 }).toContain(`${count} hits`);

    // Apply: every status change in one step, published; the button says so.
    const before = alabamaStatus();
    const entered = live.session.recentLog().at(-1)!;
    if (entered.kind !== 'outcome') throw new Error('the entered dice were not logged as an outcome');
    const expected = statusChangesOf(live.pipeline.state().tableState, entered.outcome).al19;
    expect(expected).not.toEqual(before ?? {});
    // The checks the outcome calls for next (hits placed once both sides have fired), each with its buttons.
    expect(entered.outcome.followUps.length).toBeGreaterThan(0);
    await expect.poll(() => operator.locator('#follow-ups .roll-action').count(), { timeout: 10_000 }).toBe(entered.outcome.followUps.length);
    await operator.locator('#apply-outcome').click();
    await expect.poll(() => alabamaStatus(), { timeout: 10_000 }).toEqual(expected);
    await expect.poll(() => operator.locator('#apply-outcome').textContent()).toBe('Applied');
    expect(await operator.locator('#apply-outcome').isDisabled()).toBe(true);
    expect(live.session.recentLog().some((e) => e.kind === 'outcome-applied')).toBe(true);
    await operator.screenshot({ path: join(ARTIFACTS_DIR, 'operator-after-the-roll.png') });

    // Undo takes the whole apply back.
    expect(await operator.locator('#undo').getAttribute('title')).toContain(`apply ${count} hits`);
    await operator.locator('#undo').click();
    await expect.poll(() => alabamaStatus(), { timeout: 10_000 }).toEqual(before);
    await expect.poll(() => operator.locator('#apply-outcome').textContent()).toBe('Apply');
    expect(live.session.recentLog().at(-1)?.kind).toBe('outcome-undone');

    // Clear: the operator's box and the map's strip stop showing it.
    await operator.locator('#clear-outcome').click();
    await expect.poll(() => operator.locator('#outcome').textContent(), { timeout: 10_000 }).toBe('');
    await expect.poll(() => map.locator('.hud-outcome').isHidden(), { timeout: 10_000 }).toBe(true);
  }, 120_000);

  it('the projector draws a forced move’s path on the cloth until the outcome is cleared', async () => {
    const projector = await open('/projector.html');
    // The 19th Alabama skedaddles; the path is the engine's for these faces.
    const action = { kind: 'skedaddle', unitId: 'al19' } as const;
    const table = live.pipeline.state().tableState;
    const requests = diceForAction(dtp, table, action) as DiceRequest[];
    const faces = Object.fromEntries(requests.map((r) => [r.id, Array(r.count).fill(5)]));
    const expected = resolveAction(dtp, table, action, faces) as Outcome;
    const move = expected.effects.find((e) => e.unitId === 'al19' && e.move)?.move;
    expect(move, 'a skedaddle moves the unit').toBeDefined();
    // Sample the path beyond the unit's own stands (the stand mask keeps light off the stands).
    const [from, to] = [move!.path[0]!, move!.path.at(-1)!];
    const along = Array.from({ length: 40 }, (_, i) => 0.3 + (0.65 * i) / 39).map((t) => ({ xIn: from.xIn + (to.xIn - from.xIn) * t, yIn: from.yIn + (to.yIn - from.yIn) * t }));
    const orangeAlong = async (): Promise<number> => {
      const pts = await projector.evaluate((list) => list.map((p) => window.__muster!.tableToScreenPx(p.xIn, p.yIn)), along);
      const png = await projector.screenshot();
      const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
      // The forced move's orange (0xff8c1a), dashed: count the samples that fall on it.
      return pts.filter(({ xPx, yPx }) => {
        const i = (Math.round(yPx) * info.width + Math.round(xPx)) * 3;
        return data[i]! > 200 && data[i + 1]! > 100 && data[i + 1]! < 180 && data[i + 2]! < 90;
      }).length;
    };
    // Other orange marks (a charge reach) may cross the path: count what the path adds to them.
    const baseline = await orangeAlong();
    const rolled = live.pipeline.perform({ type: 'resolve-roll', action, faces }) as { outcome: LoggedOutcome };
    expect(rolled.outcome.outcome.effects.find((e) => e.unitId === 'al19')?.move?.path).toEqual(move!.path);
    await expect.poll(orangeAlong, { timeout: 15_000 }).toBeGreaterThan(baseline + 8);
    await projector.screenshot({ path: join(ARTIFACTS_DIR, 'projector-forced-move.png') });
    live.pipeline.perform({ type: 'clear-outcome', outcomeIndex: rolled.outcome.index });
    await expect.poll(orangeAlong, { timeout: 15_000 }).toBe(baseline);
  }, 120_000);
});
