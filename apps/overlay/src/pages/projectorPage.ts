/**
 * The projector (`/projector.html`): black everywhere except the annotations, drawn through the
 * table→projector homography so reach and arcs land on the cloth. The calibration comes from the URL
 * (`?h=h00,h01,...,h22&w=1920&hpx=1080`, projector pixels) until the service publishes one; without it
 * the table is fitted to the screen, which is right for a projector aligned to the table's edges.
 * `?outline=1` also draws the table's edges, to check the alignment on the cloth.
 */
import { toHomography } from '../mapping/homography.ts';
import { normaliseHomography } from '../mapping/homography.ts';
import * as THREE from 'three';
import { polylineStrip } from '../geometry/polylineStrip.ts';
import { LiveTableView } from '../views/liveTableView.ts';
import { addIfAny, trianglesMesh } from '../views/meshFactory.ts';
import { RENDER_ORDER } from '../views/renderOrder.ts';
import { connectionBanner, h, startLive } from './bootstrap.ts';
import { ALL_LAYERS } from './layerMenu.ts';

const params = new URLSearchParams(location.search);
const { store } = startLive();
const stage = h('div', { className: 'stage' });
document.body.append(stage);
connectionBanner(stage, store);

function calibrationFromUrl() {
  const raw = params.get('h');
  if (!raw) return null;
  const homography = normaliseHomography(toHomography(raw.split(',').map(Number)));
  const widthPx = Number(params.get('w') ?? window.innerWidth);
  const heightPx = Number(params.get('hpx') ?? window.innerHeight);
  return { homography, sizePx: { widthPx, heightPx } };
}

const calibration = calibrationFromUrl();
const view = new LiveTableView({
  view: 'projector',
  container: stage,
  store,
  background: 0x000000,
  drawCloth: false,
  drawTerrain: false,
  drawStands: false,
  unitLabels: false,
  layers: new Set(ALL_LAYERS.filter((l) => (params.get('layers') ?? ALL_LAYERS.join(',')).split(',').includes(l))),
  strokeScale: 1.5,
  interactive: false,
  calibration: () => calibration,
});

if (params.get('outline') === '1') {
  let drawnFor: unknown = null;
  const drawOutline = () => {
    const t = store.snapshot.state?.tableState.table;
    if (!t || t === drawnFor) return;
    drawnFor = t;
    const group = new THREE.Group();
    const edge = [{ xIn: 0, yIn: 0 }, { xIn: t.widthIn, yIn: 0 }, { xIn: t.widthIn, yIn: t.depthIn }, { xIn: 0, yIn: t.depthIn }, { xIn: 0, yIn: 0 }];
    addIfAny(group, trianglesMesh(polylineStrip(edge, 0.25), { color: 0xffffff, opacity: 1 }, RENDER_ORDER.measure));
    view.setOverlay('measure', group);
  };
  store.subscribe(drawOutline);
  drawOutline();
}
