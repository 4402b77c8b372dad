/**
 * The stream overlay (`/overlay.html`) for OBS browser sources: transparent background, annotations and
 * unit labels only. When the service has solved the camera (image→table homography), the overlay draws
 * through its inverse so annotations sit on the stands in the camera picture: size the browser source
 * to the camera frame's aspect. Without a camera solution the table is fitted to the source.
 *
 * Optional by URL parameter: `?legend=0` hides the legend (top right), `?hud=0` the lower third (turn, last card,
 * last roll), `?third=bottom-left|bottom-right|top-left|top-right` places it (default bottom-left),
 * `?status=0` leaves the operator's status out of the unit names, `?focus=1` shows only the unit the
 * operator selected, `?measure=0` leaves out the operator's measurement (both shared by the service,
 * protocol 4 `LiveState.focus`, and at once from an operator page in the same browser).
 */
import type { LiveState } from '@muster/protocol';
import { invertHomography, toHomography } from '@muster/table-mapping';
import { LiveTableView, type Calibration } from '../views/liveTableView.ts';
import { connectionBanner, h } from './bootstrap.ts';
import { startViewerLive } from './viewerLive.ts';
import { ghostsFromUrl, layersFromUrl } from './layerMenu.ts';
import { gameHud } from './gameHud.ts';
import { FocusChannel } from './focusChannel.ts';
import { measureGroup } from './measureDrawing.ts';

const params = new URLSearchParams(location.search);
const { store } = startViewerLive(params);
const stage = h('div', { className: 'stage' });
document.body.append(stage);
connectionBanner(stage, store);

let focus: string | null = null;
const view = new LiveTableView({
  view: 'overlay',
  container: stage,
  store,
  background: null,
  drawCloth: false,
  drawTerrain: false,
  drawStands: false,
  unitLabels: true,
  layers: layersFromUrl(params),
  interactive: false,
  calibration: cameraCalibration,
  legend: params.get('legend') !== '0',
  // Stream text is read on a phone-sized video: never smaller than this.
  labelMinPx: 18,
  statusMarks: params.get('status') !== '0',
  ghosts: ghostsFromUrl(params, false),
  ...(params.get('focus') === '1' ? { unitFilter: () => (focus ? new Set([focus]) : new Set<string>()) } : {}),
});
// In a replay ghosts are what the overlay is for ("where was it before it moved?"): on unless `?ghosts=0`.
if (params.get('ghosts') === null) {
  void fetch('/api/replay').then((res) => {
    if (res.ok) view.setGhostsVisible(true);
  }).catch(() => {});
}
const channel = new FocusChannel({ store });
if (params.get('focus') === '1') {
  channel.onFocus((unitId) => {
    focus = unitId;
    view.invalidate();
  });
}
if (params.get('measure') !== '0') {
  channel.onMeasure((m) => {
    view.setOverlay('measure', m ? measureGroup(m.from, m.to, 0.15) : null);
    view.setExtraLabels(m ? [{ key: 'measure', at: { xIn: (m.from.xIn + m.to.xIn) / 2, yIn: (m.from.yIn + m.to.yIn) / 2 }, text: m.text, className: 'measure-label' }] : []);
  });
}
if (params.get('hud') !== '0') {
  const corner = ['bottom-left', 'bottom-right', 'top-left', 'top-right'].includes(params.get('third') ?? '') ? params.get('third')! : 'bottom-left';
  gameHud(stage, store, { className: `hud lower-third ${corner}` });
}

function cameraCalibration(state: LiveState | null): Calibration | null {
  const p = state?.profile;
  if (!p?.homography || !p.frameWidthPx || !p.frameHeightPx) return null;
  return { homography: invertHomography(toHomography(p.homography)), sizePx: { widthPx: p.frameWidthPx, heightPx: p.frameHeightPx } };
}
