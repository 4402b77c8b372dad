/**
 * The stream overlay (`/overlay.html`) for OBS browser sources: transparent background, annotations and
 * unit labels only. When the service has solved the camera (image→table homography), the overlay draws
 * through its inverse so annotations sit on the stands in the camera picture: size the browser source
 * to the camera frame's aspect. Without a camera solution the table is fitted to the source.
 */
import type { LiveState } from '@muster/protocol';
import { invertHomography, toHomography } from '@muster/table-mapping';
import { LiveTableView, type Calibration } from '../views/liveTableView.ts';
import { connectionBanner, h, startLive } from './bootstrap.ts';
import { layersFromUrl } from './layerMenu.ts';

const params = new URLSearchParams(location.search);
const { store } = startLive();
const stage = h('div', { className: 'stage' });
document.body.append(stage);
connectionBanner(stage, store);

new LiveTableView({
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
});

function cameraCalibration(state: LiveState | null): Calibration | null {
  const p = state?.profile;
  if (!p?.homography || !p.frameWidthPx || !p.frameHeightPx) return null;
  return { homography: invertHomography(toHomography(p.homography)), sizePx: { widthPx: p.frameWidthPx, heightPx: p.frameHeightPx } };
}
