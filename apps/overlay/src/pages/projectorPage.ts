/**
 * The projector (`/projector.html`): black everywhere except the annotations, drawn through the
 * table→projector homography so reach and arcs land on the cloth. Where the map comes from, first found:
 *
 * 1. the URL (`?h=h00,h01,...,h22&w=1920&hpx=1080`, projector pixels), for manual use;
 * 2. the service's `GET /api/projector` (`muster calibrate projector`, `npm start -- --projector <file>`),
 *    asked again after every reconnect;
 * 3. none: the table is fitted to the screen, right for a projector squared to the table's edges.
 *
 * `?outline=1` also draws the table's edges, to check the alignment on the cloth.
 * `?calibrate=1` shows the calibration pattern instead (see `projectorCalibrationPattern.ts`).
 */
import { toHomography } from '@muster/table-mapping';
import { normaliseHomography } from '@muster/table-mapping';
import * as THREE from 'three';
import { polylineStrip } from '../geometry/polylineStrip.ts';
import { LiveTableView, type Calibration } from '../views/liveTableView.ts';
import { addIfAny, trianglesMesh } from '../views/meshFactory.ts';
import { RENDER_ORDER } from '../views/renderOrder.ts';
import { connectionBanner, h, startLive } from './bootstrap.ts';
import { layersFromUrl } from './layerMenu.ts';
import { showCalibrationPattern } from './projectorCalibrationPattern.ts';
import { calibrationFromServed } from './projectorCalibrationSource.ts';

const params = new URLSearchParams(location.search);

function calibrationFromUrl(): Calibration | null {
  const raw = params.get('h');
  if (!raw) return null;
  const homography = normaliseHomography(toHomography(raw.split(',').map(Number)));
  const widthPx = Number(params.get('w') ?? window.innerWidth);
  const heightPx = Number(params.get('hpx') ?? window.innerHeight);
  return { homography, sizePx: { widthPx, heightPx } };
}

function startProjector(): void {
  const { store } = startLive();
  const stage = h('div', { className: 'stage' });
  document.body.append(stage);
  connectionBanner(stage, store);

  const fromUrl = calibrationFromUrl();
  let served: Calibration | null = null;
  const source = (): 'url' | 'service' | 'fit' => (fromUrl ? 'url' : served ? 'service' : 'fit');
  document.body.dataset.calibration = source();
  const view = new LiveTableView({
    view: 'projector',
    container: stage,
    store,
    background: 0x000000,
    drawCloth: false,
    drawTerrain: false,
    drawStands: false,
    unitLabels: false,
    layers: layersFromUrl(params),
    strokeScale: 1.5,
    interactive: false,
    calibration: () => fromUrl ?? served,
  });

  if (!fromUrl) {
    // Asked at start and after every reconnect (the service may have restarted with another file, or the
    // operator may have uploaded one). A failed request keeps what we had.
    let lastConnection: string | null = null;
    const refresh = async (): Promise<void> => {
      try {
        const res = await fetch('/api/projector', { cache: 'no-store' });
        if (!res.ok) return;
        served = calibrationFromServed(await res.json());
      } catch {
        return;
      }
      document.body.dataset.calibration = source();
      view.invalidate();
    };
    const onStore = (): void => {
      const c = store.snapshot.connection;
      if (c === 'connected' && lastConnection !== 'connected') void refresh();
      lastConnection = c;
    };
    store.subscribe(onStore);
    void refresh();
  }

  if (params.get('outline') === '1') {
    let drawnFor: unknown = null;
    const drawOutline = (): void => {
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
}

if (params.get('calibrate') === '1') showCalibrationPattern(document.body);
else startProjector();
