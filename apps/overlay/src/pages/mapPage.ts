/**
 * The map for remote viewers (`/`, `/map.html`): the whole table top-down, fitted to the screen, with
 * terrain, stands and every annotation; wheel/pinch to zoom, drag to pan, "Fit" to reset. Tapping a
 * stand focuses its unit (only its shapes are drawn); tapping open table shows everything again.
 */
import { ageText, connectionBanner, h } from './bootstrap.ts';
import { startViewerLive } from './viewerLive.ts';
import { fullTableView } from './fullTableView.ts';
import { layerMenu } from './layerMenu.ts';
import { gameHud } from './gameHud.ts';
import { replayTimelineBar } from './replayTimelineBar.ts';
import { turnPngButton } from './turnPng.ts';
import { followSharedFocus } from './followSharedFocus.ts';
import { followForcedMoves } from './forcedMoveOverlay.ts';

const { store } = startViewerLive();
const status = h('span', { className: 'status' }, 'connecting…');
const fitButton = h('button', { type: 'button', title: 'Fit the table to the screen' }, 'Fit');
const stage = h('div', { className: 'stage' });
const topbar = h('header', { className: 'topbar' }, h('h1', {}, 'Muster'), status, h('span', { className: 'spacer' }));
document.body.append(topbar, stage);
connectionBanner(stage, store);

const view = fullTableView({
  view: 'map',
  container: stage,
  store,
  allowQuarterTurn: true,
  onTableClick: (_at, stand) => {
    const unitId = stand?.unitId ?? null;
    const isUnit = unitId !== null && (store.snapshot.state?.tableState.units.some((u) => u.id === unitId) ?? false);
    view.selectUnit(isUnit ? unitId : null);
  },
});
fitButton.addEventListener('click', () => view.resetZoom());
// The operator's selection and tape, shared by the service (`?follow=0`: only this viewer's taps).
followSharedFocus(view, store);
gameHud(stage, store, { className: 'hud hud-map' });
followForcedMoves(view, store, 0.15);
topbar.append(layerMenu(view), fitButton, turnPngButton(view));
// In a replay: the timeline of turns and actions, with where it is now (viewers cannot seek).
void replayTimelineBar(stage, store);

const warnings = h('span', { className: 'warning-pill' });
warnings.id = 'warnings';
topbar.insertBefore(warnings, topbar.querySelector('.spacer'));
const refreshStatus = () => {
  const s = store.snapshot.state;
  status.textContent = s ? `Turn ${s.turn} · ${s.tableState.units.length} units · ${ageText(s.captureTimeMs)}` : store.snapshot.connection;
  // Rules and service warnings as a count; the list is in the tooltip (and the operator's panel).
  const lines = s ? [...(s.evaluation?.warnings.map((w) => w.message) ?? []), ...s.health.warnings] : [];
  warnings.textContent = lines.length ? `⚠ ${lines.length}` : '';
  warnings.title = lines.join('\n');
};
store.subscribe(refreshStatus);
setInterval(refreshStatus, 1000);
