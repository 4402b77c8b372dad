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
 *
 * Made for a cloth: every stand and tag is masked black (plus `?margin=` inches, default 0.3), shapes are
 * outlines (no washes), lines and text are sized in table inches (`?text=` inches, default 0.6), and only
 * what the moment needs is lit: `?show=focus` (default) the unit the operator selected (shared by the
 * service, protocol 4 `LiveState.focus`, so the projector may be on another machine; at once from an
 * operator page in the same browser; or fixed by `?unit=id,id`), `?show=side` the units of the side the last card
 * named, `?show=all` everything. `?legend=1` adds the legend, `?hud=1` the turn, card and last roll.
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
import { ghostsFromUrl, layersFromUrl } from './layerMenu.ts';
import { showCalibrationPattern } from './projectorCalibrationPattern.ts';
import { calibrationFromServed } from './projectorCalibrationSource.ts';
import { FocusChannel, type SharedMeasure } from './focusChannel.ts';
import { measureGroup } from './measureDrawing.ts';
import { selectedTape } from './tapeOverlay.ts';
import { gameHud } from './gameHud.ts';
import { followForcedMoves } from './forcedMoveOverlay.ts';

const params = new URLSearchParams(location.search);
/** Margin kept dark around every stand and tag, inches. */
const marginIn = Math.max(0, Number(params.get('margin') ?? 0.3) || 0);
/** Text height on the cloth, inches: 0.6" reads from a metre and more. */
const textIn = Math.max(0.2, Number(params.get('text') ?? 0.6) || 0.6);

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
  // What is lit: the operator's focus (same browser), fixed units from the URL, the acting side, or all.
  const show = params.get('show') ?? 'focus';
  const fixedUnits = params.get('unit')?.split(',').filter(Boolean) ?? null;
  let focus: string | null = null;
  const view = new LiveTableView({
    view: 'projector',
    container: stage,
    store,
    background: 0x000000,
    drawCloth: false,
    drawTerrain: false,
    drawStands: false,
    unitLabels: true,
    layers: layersFromUrl(params),
    strokeScale: 2.5,
    fills: false,
    standMaskMarginIn: marginIn,
    unitLabelSizeIn: textIn,
    shapeLabelSizeIn: textIn,
    labelMinPx: 0,
    legend: params.get('legend') === '1',
    interactive: false,
    calibration: () => fromUrl ?? served,
    unitFilter: () => shownUnits(),
    // Off unless asked (`?ghosts=1`): light on the cloth where nothing stands is a distraction in play.
    ghosts: ghostsFromUrl(params, false),
  });
  if (params.get('hud') === '1') gameHud(stage, store, { className: 'hud hud-projector' });
  // An outcome's forced moves on the cloth until the stands are moved (or the operator clears it).
  followForcedMoves(view, store, 0.3);

  const channel = new FocusChannel({ store });
  let measure: SharedMeasure | null = null;
  channel.onFocus((unitId) => {
    focus = unitId;
    drawTape();
    view.invalidate();
  });
  channel.onMeasure((m) => {
    measure = m;
    drawTape();
  });
  /**
   * The operator's tape, drawn on the cloth (under the stand mask like everything else), with the
   * selected unit's weapon bands along it when the rules publish them (as on the operator's screen). With
   * `?outline=1` that slot shows the table's edges instead.
   */
  function drawTape(): void {
    if (params.get('outline') === '1') return;
    const m = measure;
    if (!m) {
      view.setOverlay('measure', null);
      view.setExtraLabels([]);
      return;
    }
    const state = store.snapshot.state;
    const unitOfStand = (standId: string | null | undefined): string | null =>
      (standId && state?.tableState.stands.find((st) => st.id === standId)?.unitId) || null;
    const tape = state && focus ? selectedTape(state, focus, { from: m.from, to: m.to, fromUnitId: unitOfStand(m.fromStandId), toUnitId: unitOfStand(m.toStandId) }, 0.3) : null;
    const banded = tape !== null && tape.bandCount > 0;
    view.setOverlay('measure', banded ? tape.group : measureGroup(m.from, m.to, 0.3));
    // The reading beside the tape's middle, in table inches like every label on the cloth.
    const reading = { key: 'measure', at: { xIn: (m.from.xIn + m.to.xIn) / 2, yIn: (m.from.yIn + m.to.yIn) / 2 }, text: m.text, className: 'measure-label', sizeIn: textIn };
    view.setExtraLabels([reading, ...(banded ? tape.labels.map((l) => ({ ...l, sizeIn: textIn })) : [])]);
  }
  // A new card changes the acting side without changing the table.
  if (show === 'side') store.subscribe(() => view.invalidate());
  function shownUnits(): ReadonlySet<string> | null {
    if (show === 'all') return null;
    const units = store.snapshot.state?.tableState.units ?? [];
    if (show === 'side') {
      const lastCard = [...store.snapshot.log].reverse().find((e) => e.kind === 'card');
      const side = lastCard?.kind === 'card' ? lastCard.draw.card.first : undefined;
      return new Set(side ? units.filter((u) => u.side === side).map((u) => u.id) : []);
    }
    if (fixedUnits) return new Set(fixedUnits);
    return new Set(focus ? [focus] : []);
  }


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
