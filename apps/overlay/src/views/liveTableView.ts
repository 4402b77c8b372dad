/**
 * One live table on screen: store in, canvas and labels out. Every page (map, operator, projector,
 * stream overlay) is this with different options and a little chrome around it. Rebuilds only the groups
 * whose input changed (terrain, stands, annotations), and draws at most once per animation frame.
 */
import type { LabelShape, LayerId, PointIn, Stand, StyleId, TableState } from '@muster/rules';
import type { LiveState } from '@muster/protocol';
import { multiplyHomography } from '@muster/table-mapping';
import { screenPxToTable, tableToScreenPx, type Homography, type ScreenPointPx } from '../mapping/homography.ts';
import { fitTableReserving, fitToHomography, panFit, zoomFitAt, type FitReserve, type TableFit } from '../mapping/tableFit.ts';
import { pointInPolygon, standFootprint } from '../geometry/standFootprint.ts';
import type { LiveStore, LiveStoreSnapshot } from '../state/liveStore.ts';
import { buildAnnotations } from './annotationLayer.ts';
import { LabelLayer, type LabelSpec, type Rect } from './labelLayer.ts';
import { LegendBox, ghostLegend, statusLegend } from './legendBox.ts';
import { ghostMarks, isGhostStand, type Ghost, type GhostMark } from '../geometry/ghostMarks.ts';
import { GhostFeed } from '../net/ghostFeed.ts';
import { buildGhostGroup } from './ghostLayer.ts';
import { statusWords } from '../ui/statusWords.ts';
import * as THREE from 'three';
import { TriangleBatch } from './triangleBatch.ts';
import { addIfAny } from './meshFactory.ts';
import { boxOfPoints, changedBoxes, screenRects, shapeBox, type ItemBox } from './damageRegion.ts';
import { shapeVisible, type AnnotationFilter } from './annotationLayer.ts';
import type { RectIn } from '../geometry/clipTriangles.ts';
import { RENDER_ORDER } from './renderOrder.ts';
import { disposeTree } from './meshFactory.ts';
import { GHOST_PAINT, STYLE_PAINT, TABLE_CLOTH, sidePaint } from './palette.ts';
import { TableRenderer } from './tableRenderer.ts';
import { STATUS_MARK_PAINT, buildChipsGroup, buildClothGroup, buildStandsGroup, buildTerrainGroup, buildUnknownTagsGroup, sidesOf, UNKNOWN_TAG_SIZE_IN } from './tableSceneBuilder.ts';
import { installHooks, type MusterHooks } from './testHooks.ts';

export interface LiveTableViewOptions {
  readonly view: string;
  readonly container: HTMLElement;
  readonly store: LiveStore;
  /** Clear colour, or null for transparent. */
  readonly background: number | null;
  readonly drawCloth: boolean;
  readonly drawTerrain: boolean;
  readonly drawStands: boolean;
  readonly unitLabels: boolean;
  readonly layers: ReadonlySet<LayerId>;
  /** Bolder annotation lines (projector). Default 1. */
  readonly strokeScale?: number;
  /** Wheel/pinch zoom and drag pan. */
  readonly interactive: boolean;
  /**
   * A measured table → device-pixel map (projector, camera), asked for on every frame so it can follow
   * the live state; the view scales it to its own size. Absent or null: fit the table to the view.
   */
  readonly calibration?: (state: LiveState | null) => Calibration | null;
  /** Turn a landscape table a quarter on a portrait screen (phones) when that makes it clearly bigger. */
  readonly allowQuarterTurn?: boolean;
  /** Only annotations about the selected unit are drawn when true and a unit is selected. */
  readonly filterBySelection?: boolean;
  /** Show a legend of the styles on screen (and of `legendExtras`). */
  readonly legend?: boolean;
  /** False: annotation outlines only, no area washes (the projector). Default true. */
  readonly fills?: boolean;
  /**
   * Paint every stand footprint and every tag (plus this margin, inches) black over everything: the
   * projector must never light a miniature, nor blind the camera reading the tags.
   */
  readonly standMaskMarginIn?: number;
  /**
   * Which units' shapes and labels to show, asked on every frame (the projector's focus); null: all (or
   * the selection when `filterBySelection`).
   */
  readonly unitFilter?: () => ReadonlySet<string> | null;
  /** Label sizes in table inches (the projector wants them true size on the cloth); defaults 0.7 / 0.6. */
  readonly unitLabelSizeIn?: number;
  readonly shapeLabelSizeIn?: number;
  /** Smallest label font, CSS px; default 11. 0 on the projector. */
  readonly labelMinPx?: number;
  /** Draw the operator's status on the stands (and name it under the unit). Default: with the stands. */
  readonly statusMarks?: boolean;
  /** The cursor over the table for a pointer at `at` (over `stand`), when not dragging. */
  readonly cursorAt?: (at: PointIn, stand: Stand | null) => string;
  /** A click (not a drag) on the table. */
  readonly onTableClick?: (at: PointIn, stand: Stand | null) => void;
  /**
   * A press on the table: return a handler to take the gesture as a drag (moving a terrain vertex),
   * or null to let it pan/click as usual. The handler gets every move, then 'end' on release after a
   * real drag or 'cancel' (a press that did not move is handled as a click).
   */
  readonly onDragStart?: (at: PointIn) => DragHandler | null;
  /**
   * Ghosts (where each stand stood before its last move, from `GET /api/ghosts`): absent, the page has
   * none; otherwise whether the layer starts shown (`setGhostsVisible` switches it).
   */
  readonly ghosts?: boolean;
}

/** Follows one drag gesture on the table. */
export type DragHandler = (at: PointIn, phase: 'move' | 'end' | 'cancel') => void;

/** A fixed table → pixels map measured for some device (projector, camera), in that device's pixels. */
export interface Calibration {
  readonly homography: Homography;
  readonly sizePx: { readonly widthPx: number; readonly heightPx: number };
}

const filterKeyOf = (ids: ReadonlySet<string> | null): string => (ids ? [...ids].sort().join(',') : '*');

const QUIET_STYLES: ReadonlySet<StyleId> = new Set<StyleId>(['arc', 'arc-artillery']);

/**
 * Boxes over the stage that a fitted table keeps clear of (interactive views): a bar at the top (the replay
 * timeline) always, the legend and game strip at the bottom where there is room (a phone). An element
 * says its side with `data-fit-reserve="top|bottom"`, else by where it sits.
 */
const RESERVING_SELECTOR = '.legend, .hud, [data-fit-reserve]';

/** How far a stand's drawing reaches past its footprint (status ring, selection outline), inches. */
const STAND_MARK_REACH_IN = 0.6;

/** Movement under this many CSS px between press and release is a click, not a pan. */
const CLICK_SLOP_PX = 6;

/**
 * The box in table inches of every mesh under `root` (their positions are in inches), grown a little for
 * edge pixels; null when it has no geometry, undefined when it cannot be told (draw everything then).
 */
function geometryBoxIn(root: THREE.Object3D): RectIn | null | undefined {
  const all = new THREE.Box3();
  let moved = false;
  const untransformed = (o: THREE.Object3D) => o.position.lengthSq() === 0 && o.scale.x === 1 && o.scale.y === 1 && o.scale.z === 1 && o.quaternion.w === 1;
  root.traverse((o) => {
    if (!untransformed(o)) moved = true;
    if (!(o instanceof THREE.Mesh)) return;
    o.geometry.computeBoundingBox();
    if (o.geometry.boundingBox) all.union(o.geometry.boundingBox);
  });
  // Overlays are built in inches, untransformed; anything else is drawn whole rather than guessed.
  if (moved) return undefined;
  if (all.isEmpty()) return null;
  if (![all.min.x, all.min.y, all.max.x, all.max.y].every(Number.isFinite)) return undefined;
  return { x0: all.min.x - 0.1, y0: all.min.y - 0.1, x1: all.max.x + 0.1, y1: all.max.y + 0.1 };
}

export class LiveTableView {
  readonly renderer: TableRenderer;
  readonly labels: LabelLayer;
  readonly legend: LegendBox | null;
  readonly hooks: MusterHooks;
  private legendExtras: Parameters<LegendBox['set']>[1] = [];
  private drawnStyles: readonly StyleId[] = [];
  /** The fit's scale when the table was last fitted: zoom is kept between a little out and 12× in from it. */
  private fittedPxPerIn = 0;
  private state: LiveState | null = null;
  private selectedUnitId: string | null = null;
  private layers: Set<LayerId>;
  private fit: TableFit | null = null;
  /** The bands the last fit kept clear. */
  private reserve: FitReserve = { topPx: 0, bottomPx: 0 };
  private userZoomed = false;
  private frameRequested = false;
  /** Something changed since the last draw. */
  private dirty = false;
  private drawTimerSet = false;
  private drewEarlyThisFrame = false;
  /** Groups replaced since the last render, freed after it. */
  private readonly retired: THREE.Object3D[] = [];
  private extraLabels: readonly LabelSpec[] = [];
  private annotationLabels: readonly LabelShape[] = [];
  private ghostFeed: GhostFeed | null = null;
  private ghosts: readonly Ghost[] = [];
  private ghostsShown = false;
  /** The ghosts as drawn now (empty when the layer is off). */
  private drawnGhosts: readonly GhostMark[] = [];
  /**
   * Where the canvas must be drawn again (table inches), and whether all of it must. On a software
   * rasteriser only these boxes are redrawn (the drawing buffer is preserved): see damageRegion.ts.
   */
  private damage: RectIn[] = [];
  private damageAll = true;
  private lastViewKey = '';
  /** What each group drew, per item, to find what an update changed. */
  private readonly drawnItems = { stands: new Map<string, ItemBox>(), shapes: new Map<string, ItemBox>(), tags: new Map<string, ItemBox>(), ghosts: new Map<string, ItemBox>(), mask: new Map<string, ItemBox>() };
  // Inputs of the last build of each group, compared by identity (the store replaces what changed).
  private built: { table?: unknown; terrain?: unknown; stands?: unknown; units?: unknown; occludedKey?: string; tracks?: unknown; clipTable?: unknown; shapes?: unknown; selection?: string | null; layersKey?: string; filterKey?: string; maskStands?: unknown; maskTracks?: unknown; ghosts?: unknown; ghostStands?: unknown; ghostFilterKey?: string } = {};

  constructor(private readonly options: LiveTableViewOptions) {
    this.layers = new Set(options.layers);
    this.renderer = new TableRenderer(options.container, { background: options.background, onContextRestored: () => this.redrawAll() });
    this.labels = new LabelLayer(options.container, options.labelMinPx);
    this.legend = options.legend ? new LegendBox(options.container, options.fills ?? true) : null;
    const view = this;
    this.hooks = installHooks({
      view: options.view,
      ready: false,
      lastSeq: -1,
      frames: 0,
      lastRebuildMs: 0,
      contextLosses: 0,
      lastRenderMs: 0,
      connection: 'connecting',
      selectedUnitId: null,
      tableToScreenPx: (xIn, yIn) => view.toPagePx({ xIn, yIn }),
      screenPxToTable: (xPx, yPx) => view.fromPagePx({ xPx, yPx }),
      standAt: (xPx, yPx) => view.standAt(view.fromPagePx({ xPx, yPx })),
      ghosts: [],
      canvasDraws: 0,
      lastDrawnAreaPx: 0,
      redrawAll: () => view.redrawAll(),
    });
    if (options.ghosts !== undefined) {
      this.ghostFeed = new GhostFeed((ghosts) => {
        this.ghosts = ghosts;
        this.invalidate();
      });
      this.ghostsShown = options.ghosts;
    }
    options.store.subscribe((s) => this.onStore(s));
    this.onStore(options.store.snapshot);
    new ResizeObserver(() => {
      if (this.renderer.resize()) {
        if (!this.userZoomed) this.fit = null;
        this.redrawAll();
      }
    }).observe(options.container);
    if (options.interactive) {
      this.watchReservedBands();
      this.attachPointer();
    }
    else if (options.onTableClick) this.attachClickOnly();
  }

  get currentState(): LiveState | null {
    return this.state;
  }

  get selection(): string | null {
    return this.selectedUnitId;
  }

  /** Selects a unit; zoomed in, the view follows it so it stays in sight. */
  selectUnit(unitId: string | null): void {
    this.selectedUnitId = unitId;
    this.hooks.selectedUnitId = unitId;
    const stands = unitId && this.userZoomed ? (this.state?.tableState.stands.filter((s) => s.unitId === unitId) ?? []) : [];
    if (stands.length > 0) this.centreOn({ xIn: stands.reduce((a, s) => a + s.pose.xIn, 0) / stands.length, yIn: stands.reduce((a, s) => a + s.pose.yIn, 0) / stands.length });
    this.redrawAll();
  }

  setLayerVisible(layer: LayerId, visible: boolean): void {
    if (visible) this.layers.add(layer);
    else this.layers.delete(layer);
    this.redrawAll();
  }

  /** Shows or hides the ghosts (a page without them ignores this). */
  setGhostsVisible(visible: boolean): void {
    if (!this.ghostFeed) return;
    this.ghostsShown = visible;
    if (visible) this.ghostFeed.request();
    this.invalidate();
  }

  /** null: this view has no ghost layer. */
  get ghostsVisible(): boolean | null {
    return this.ghostFeed ? this.ghostsShown : null;
  }

  /** A live stand, or a ghost (`ghost:<stand id>`) as drawn now. */
  standById(id: string): Stand | null {
    if (isGhostStand({ id })) return this.drawnGhosts.find((g) => g.stand.id === id)?.stand ?? null;
    return this.state?.tableState.stands.find((s) => s.id === id) ?? null;
  }

  get visibleLayers(): ReadonlySet<LayerId> {
    return this.layers;
  }

  /**
   * Extra groups in table inches: the measure line and terrain being drawn over the table, the camera
   * backdrop under it, an outcome's forced moves (each group's renderOrder places it).
   */
  setOverlay(name: 'measure' | 'draft' | 'backdrop' | 'outcome', group: THREE.Group | null): void {
    const old = this.renderer.replaceLayer(name, group);
    if (old) this.retired.push(old);
    // A tape or a draft line being dragged redraws only where it was and is; the photo redraws everything.
    const boxes = name === 'backdrop' ? null : [old, group].flatMap((g) => (g ? [geometryBoxIn(g)] : []));
    if (boxes === null || boxes.some((b) => b === undefined)) this.damageAll = true;
    else for (const b of boxes) if (b) this.damage.push(b);
    this.invalidate();
  }

  /** Legend lines a page adds for its own marks (a measurement, status on stands). */
  setLegendExtras(extras: Parameters<LegendBox['set']>[1]): void {
    this.legendExtras = extras;
    this.legend?.set(this.drawnStyles, this.allLegendExtras());
  }

  private allLegendExtras(): Parameters<LegendBox['set']>[1] {
    return this.drawnGhosts.length > 0 ? [...(this.legendExtras ?? []), ghostLegend(GHOST_PAINT.color)] : this.legendExtras;
  }

  /** Keeps the zoom and moves the table so `p` is in the middle of the view (zoom follows the selection). */
  centreOn(p: PointIn): void {
    if (!this.fit || this.options.calibration?.(this.state)) return;
    const now = tableToScreenPx(fitToHomography(this.fit), p);
    const { widthPx, heightPx } = this.renderer.sizePx;
    this.fit = panFit(this.fit, widthPx / 2 - now.xPx, heightPx / 2 - now.yPx);
    this.invalidate();
  }

  /** True when the user has zoomed or panned away from the fitted table. */
  get zoomed(): boolean {
    return this.userZoomed;
  }

  setExtraLabels(labels: readonly LabelSpec[]): void {
    this.extraLabels = labels;
    this.invalidate();
  }

  resetZoom(): void {
    this.userZoomed = false;
    this.fit = null;
    this.invalidate();
  }

  /** The current table → view-pixel map. */
  homography(): Homography {
    const { widthPx, heightPx } = this.renderer.sizePx;
    const cal = this.options.calibration?.(this.state) ?? null;
    if (cal) {
      // Contain, like object-fit: the device frame keeps its aspect and is centred in the view.
      const k = Math.min(widthPx / cal.sizePx.widthPx, heightPx / cal.sizePx.heightPx);
      const dx = (widthPx - cal.sizePx.widthPx * k) / 2;
      const dy = (heightPx - cal.sizePx.heightPx * k) / 2;
      const scale: Homography = [k, 0, dx, 0, k, dy, 0, 0, 1];
      return multiplyHomography(scale, cal.homography);
    }
    const table = this.state?.tableState.table ?? { widthIn: 72, depthIn: 48 };
    if (!this.fit) {
      // A phone's few hundred px are worth more than the breathing room a wide screen can spare.
      const marginPx = this.options.interactive ? (widthPx < 520 ? 4 : 12) : 0;
      this.reserve = this.options.interactive ? this.reservedBands() : { topPx: 0, bottomPx: 0 };
      this.fit = fitTableReserving(table, { widthPx, heightPx }, this.reserve, marginPx, this.options.allowQuarterTurn ?? false);
      this.fittedPxPerIn = this.fit.pxPerIn;
    }
    return fitToHomography(this.fit);
  }

  /** The stage's top and bottom bands taken by the boxes over it (RESERVING_SELECTOR), CSS px. */
  private reservedBands(): FitReserve {
    const container = this.options.container;
    const stage = container.getBoundingClientRect();
    let topPx = 0;
    let bottomPx = 0;
    for (const el of container.querySelectorAll<HTMLElement>(RESERVING_SELECTOR)) {
      if (el.parentElement !== container || el.hidden) continue;
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) continue;
      const side = el.dataset.fitReserve ?? (r.top + r.height / 2 < stage.top + stage.height / 2 ? 'top' : 'bottom');
      if (side === 'top') topPx = Math.max(topPx, r.bottom - stage.top + 4);
      else bottomPx = Math.max(bottomPx, stage.bottom - r.top + 4);
    }
    return { topPx: Math.round(topPx), bottomPx: Math.round(bottomPx) };
  }

  /** Fits the table again when a reserving box comes, goes or changes size (unless the user zoomed). */
  private watchReservedBands(): void {
    const container = this.options.container;
    const sizes = new ResizeObserver(() => {
      const now = this.reservedBands();
      if (now.topPx === this.reserve.topPx && now.bottomPx === this.reserve.bottomPx) return;
      if (!this.userZoomed) this.fit = null;
      this.redrawAll();
    });
    const observeAll = () => {
      for (const el of container.querySelectorAll<HTMLElement>(RESERVING_SELECTOR)) if (el.parentElement === container) sizes.observe(el);
    };
    observeAll();
    new MutationObserver(() => {
      observeAll();
      if (!this.userZoomed) this.fit = null;
      this.redrawAll();
    }).observe(container, { childList: true });
  }

  /** Local scale at a table point, px per inch (for text sizes). */
  private pxPerInAt(p: PointIn): number {
    const h = this.homography();
    const a = tableToScreenPx(h, p);
    const b = tableToScreenPx(h, { xIn: p.xIn + 1, yIn: p.yIn });
    return Math.hypot(b.xPx - a.xPx, b.yPx - a.yPx);
  }

  toPagePx(p: PointIn): ScreenPointPx {
    const local = tableToScreenPx(this.homography(), p);
    const rect = this.renderer.canvas.getBoundingClientRect();
    return { xPx: local.xPx + rect.left, yPx: local.yPx + rect.top };
  }

  fromPagePx(p: ScreenPointPx): PointIn {
    const rect = this.renderer.canvas.getBoundingClientRect();
    return screenPxToTable(this.homography(), { xPx: p.xPx - rect.left, yPx: p.yPx - rect.top });
  }

  /**
   * The stand whose footprint contains the point, else a ghost whose footprint does (live stands first:
   * one standing over its own ghost is the stand), else the nearest of either within half an inch.
   */
  standAt(p: PointIn): Stand | null {
    const stands = [...(this.state?.tableState.stands ?? []), ...this.drawnGhosts.map((g) => g.stand)];
    let nearest: Stand | null = null;
    let nearestIn = 0.5;
    for (const s of stands) {
      if (pointInPolygon(p, standFootprint(s).corners)) return s;
      const d = Math.hypot(s.pose.xIn - p.xIn, s.pose.yIn - p.yIn) - Math.max(s.widthIn, s.depthIn) / 2;
      if (d < nearestIn) {
        nearestIn = d;
        nearest = s;
      }
    }
    return nearest;
  }

  /** Draws the whole canvas again on the next frame (what changed is not tracked per item). */
  redrawAll(): void {
    this.damageAll = true;
    this.invalidate();
  }

  /** Asks for a frame; it redraws what the groups' rebuilds mark as changed, and re-places the labels. */
  invalidate(): void {
    this.dirty = true;
    if (this.frameRequested) return;
    this.frameRequested = true;
    requestAnimationFrame(() => {
      this.frameRequested = false;
      this.drewEarlyThisFrame = false;
      if (this.dirty) this.draw();
    });
  }

  /**
   * A new published state is drawn as soon as the task that brought it ends, not at the next animation
   * frame: the WebGL commands then run in the GPU process while this thread idles until the frame, and
   * Chrome's read-back of the canvas at the frame (software compositing) finds them done instead of
   * blocking the main thread on them. Input (zoom, pan) still draws once per frame.
   */
  private drawSoon(): void {
    this.invalidate();
    // At most one early draw per frame: a burst of messages (a pose, then its evaluation) waits for the frame.
    if (this.drawTimerSet || this.drewEarlyThisFrame) return;
    this.drawTimerSet = true;
    setTimeout(() => {
      this.drawTimerSet = false;
      if (!this.dirty) return;
      this.drewEarlyThisFrame = true;
      this.draw();
    }, 0);
  }

  private onStore(s: LiveStoreSnapshot): void {
    this.hooks.connection = s.connection;
    if (s.state !== this.state) {
      // New poses may mean new ghosts (a replay moved to another moment, a stand moved).
      if (this.ghostFeed && this.ghostsShown && s.state && s.state.tableState.stands !== this.state?.tableState.stands) this.ghostFeed.request();
      if (s.state && this.state && s.state.tableState.table !== this.state.tableState.table && !this.userZoomed) this.fit = null;
      this.state = s.state;
      this.drawSoon();
    }
  }

  private rebuild(state: LiveState): void {
    const ts = state.tableState;
    const o = this.options;
    if (o.drawCloth && this.built.table !== ts.table) {
      this.swap('cloth', buildClothGroup(ts.table));
      this.renderer.setCloth({ widthIn: ts.table.widthIn, depthIn: ts.table.depthIn, color: TABLE_CLOTH });
      this.built.table = ts.table;
      this.damageAll = true;
    }
    if (o.drawTerrain && this.built.terrain !== ts.terrain) {
      this.swap('terrain', buildTerrainGroup(ts.terrain));
      this.built.terrain = ts.terrain;
      this.damageAll = true;
    }
    const occluded = new Set(state.tracks.filter((t) => t.occluded && t.standId !== null).map((t) => t.standId!));
    const occludedKey = [...occluded].sort().join(',');
    if (
      o.drawStands &&
      (this.built.stands !== ts.stands || this.built.units !== ts.units || this.built.selection !== this.selectedUnitId || this.built.occludedKey !== occludedKey)
    ) {
      this.swap('stands', buildStandsGroup(ts, this.selectedUnitId, occluded));
      // Moved, added or removed stands are tracked one by one; a unit's status, the selection or what is
      // hidden repaints every stand of a unit: the whole canvas then.
      if (this.built.units !== ts.units || this.built.selection !== this.selectedUnitId || this.built.occludedKey !== occludedKey) this.damageAll = true;
      this.noteDrawn('stands', new Map(ts.stands.map((st) => [st.id, { ref: st, box: boxOfPoints(standFootprint(st).corners, STAND_MARK_REACH_IN)! }])));
      if (this.legend) {
        const st = ts.units.map((u) => u.status ?? {});
        this.setLegendExtras(
          statusLegend(
            { disordered: st.some((x) => x.disordered), prone: st.some((x) => x.prone), hit: st.some((x) => Object.values(x.hitsByStand ?? {}).some((n) => n > 0)) },
            { disordered: STATUS_MARK_PAINT.disordered.color, prone: STATUS_MARK_PAINT.prone.color, hit: STATUS_MARK_PAINT.hit.color },
          ),
        );
      }
      this.built.stands = ts.stands;
      this.built.units = ts.units;
      this.built.occludedKey = occludedKey;
    }
    if (o.drawStands && this.built.tracks !== state.tracks) {
      const live = new Set(state.liveTrackIds);
      const unknown = this.unknownTracks(state);
      const chips = state.tracks.filter((t) => t.chip && live.has(t.trackId));
      // Every pose frame replaces the tracks; only the few drawn (unknown tags, chips) matter here.
      const items = new Map<string, ItemBox>();
      for (const t of unknown) items.set(`tag:${t.trackId}`, { ref: `${t.pose.xIn},${t.pose.yIn}`, box: boxOfPoints([t.pose], UNKNOWN_TAG_SIZE_IN / 2 + 0.2)! });
      for (const t of chips) items.set(`chip:${t.trackId}`, { ref: `${t.chip},${t.pose.xIn},${t.pose.yIn}`, box: boxOfPoints([t.pose], 0.6)! });
      if (this.noteDrawn('tags', items)) {
        this.swap('unknown-tags', buildUnknownTagsGroup(unknown));
        this.swap('chips', buildChipsGroup(chips.map((t) => ({ chip: t.chip!, pose: t.pose }))));
      }
      this.built.tracks = state.tracks;
    }
    const ghostFilterKey = `${this.ghostsShown}|${filterKeyOf(o.unitFilter?.() ?? null)}`;
    if (this.ghostFeed && (this.built.ghosts !== this.ghosts || this.built.ghostStands !== ts.stands || this.built.ghostFilterKey !== ghostFilterKey)) {
      const only = o.unitFilter?.() ?? null;
      this.drawnGhosts = this.ghostsShown ? ghostMarks(only ? this.ghosts.filter((g) => only.has(g.unitId)) : this.ghosts, ts.stands) : [];
      const items = new Map<string, ItemBox>();
      for (const g of this.drawnGhosts) {
        const pts = [...g.outline, ...g.link];
        items.set(g.standId, { ref: pts.map((p) => `${p.xIn},${p.yIn}`).join(';'), box: boxOfPoints(pts, 0.3 * (o.strokeScale ?? 1))! });
      }
      // The ghost feed answers after every move, mostly with the same ghosts: nothing to draw then.
      if (this.noteDrawn('ghosts', items)) this.swap('ghosts', buildGhostGroup(this.drawnGhosts, o.strokeScale ?? 1));
      this.hooks.ghosts = this.drawnGhosts.map((g) => ({ standId: g.standId, unitId: g.stand.unitId, ...g.stand.pose }));
      this.legend?.set(this.drawnStyles, this.allLegendExtras());
      this.built.ghosts = this.ghosts;
      this.built.ghostStands = ts.stands;
      this.built.ghostFilterKey = ghostFilterKey;
    }
    const shapes = state.evaluation?.shapes ?? [];
    const layersKey = [...this.layers].sort().join(',');
    const unitIds = o.unitFilter?.() ?? null;
    const filterKey = unitIds ? [...unitIds].sort().join(',') : '*';
    if (o.standMaskMarginIn !== undefined && (this.built.maskStands !== ts.stands || this.built.maskTracks !== state.tracks)) {
      const m = o.standMaskMarginIn;
      const items = new Map<string, ItemBox>();
      for (const st of ts.stands) items.set(`stand:${st.id}`, { ref: st, box: boxOfPoints(standFootprint(st).corners, m + 0.1)! });
      const live = new Set(state.liveTrackIds);
      for (const t of state.tracks) if (live.has(t.trackId)) items.set(`tag:${t.trackId}`, { ref: `${t.pose.xIn},${t.pose.yIn}`, box: boxOfPoints([t.pose], UNKNOWN_TAG_SIZE_IN / 2 + m + 0.1)! });
      if (this.noteDrawn('mask', items)) this.swap('stand-mask', this.buildStandMask(state, m));
      this.built.maskStands = ts.stands;
      this.built.maskTracks = state.tracks;
    }
    if (this.built.shapes !== shapes || this.built.selection !== this.selectedUnitId || this.built.layersKey !== layersKey || this.built.clipTable !== ts.table || this.built.filterKey !== filterKey) {
      const filter: AnnotationFilter = {
        layers: this.layers,
        unitId: o.filterBySelection ? this.selectedUnitId : null,
        unitIds,
        strokeScale: o.strokeScale ?? 1,
        table: ts.table,
        fills: o.fills ?? true,
        // Every unit's fire arcs at once bury the terrain (and, one per stand, are most of a software
        // renderer's frame): they show for the selected unit only.
        ...(o.filterBySelection && this.selectedUnitId === null ? { hiddenStyles: QUIET_STYLES } : {}),
      };
      const build = buildAnnotations(shapes, filter);
      // The shapes drawn, each with the box its fill, line and arrowhead can reach.
      const items = new Map<string, ItemBox>();
      for (const shape of shapes) {
        if (shape.kind === 'label' || !shapeVisible(shape, filter)) continue;
        const widthIn = STYLE_PAINT[shape.style].strokeWidthIn * (o.strokeScale ?? 1);
        const box = shapeBox(shape, (shape.kind === 'polyline' && shape.arrow ? Math.max(0.5, widthIn * 5) : widthIn) + 0.1);
        if (box) items.set(shape.id, { ref: shape, box });
      }
      this.noteDrawn('shapes', items);
      this.built.filterKey = filterKey;
      this.drawnStyles = build.styles;
      this.legend?.set(build.styles, this.allLegendExtras());
      this.built.clipTable = ts.table;
      this.swap('annotations', build.group);
      this.annotationLabels = build.labels;
      this.built.shapes = shapes;
      this.built.layersKey = layersKey;
    }
    this.built.selection = this.selectedUnitId;
  }

  /**
   * Records what a group draws now and marks the boxes of whatever changed since its last build.
   * @returns whether anything changed.
   */
  private noteDrawn(group: keyof LiveTableView['drawnItems'], items: Map<string, ItemBox>): boolean {
    const changed = changedBoxes(this.drawnItems[group], items);
    this.drawnItems[group] = items;
    this.damage.push(...changed);
    return changed.length > 0;
  }

  /** Black footprints (stands grown by the margin, every live tag as a square) drawn over everything. */
  private buildStandMask(state: LiveState, marginIn: number): THREE.Group {
    const group = new THREE.Group();
    const batch = new TriangleBatch();
    const black = { color: 0x000000, opacity: 1 };
    for (const s of state.tableState.stands) {
      batch.addPolygon(standFootprint({ ...s, widthIn: s.widthIn + 2 * marginIn, depthIn: s.depthIn + 2 * marginIn }).corners, black);
    }
    const live = new Set(state.liveTrackIds);
    const r = UNKNOWN_TAG_SIZE_IN / 2 + marginIn;
    for (const t of state.tracks) {
      if (!live.has(t.trackId)) continue;
      const { xIn, yIn } = t.pose;
      batch.addPolygon([{ xIn: xIn - r, yIn: yIn - r }, { xIn: xIn + r, yIn: yIn - r }, { xIn: xIn + r, yIn: yIn + r }, { xIn: xIn - r, yIn: yIn + r }], black);
    }
    addIfAny(group, batch.toMesh(RENDER_ORDER.standMask));
    return group;
  }

  /** Screen boxes of every stand (and live tag), grown by `marginIn`: where labels must not go. */
  private standObstacles(state: LiveState, h: Homography, marginIn: number): Rect[] {
    const rect = (pts: readonly PointIn[]): Rect => {
      const q = pts.map((p) => tableToScreenPx(h, p));
      const x0 = Math.min(...q.map((p) => p.xPx));
      const y0 = Math.min(...q.map((p) => p.yPx));
      return { x: x0, y: y0, w: Math.max(...q.map((p) => p.xPx)) - x0, h: Math.max(...q.map((p) => p.yPx)) - y0 };
    };
    return state.tableState.stands.map((s) => rect(standFootprint({ ...s, widthIn: s.widthIn + 2 * marginIn, depthIn: s.depthIn + 2 * marginIn }).corners));
  }

  private swap(name: string, group: THREE.Group): void {
    const old = this.renderer.replaceLayer(name, group);
    // Freed after the next render, not now: three deletes a shader program as soon as no material uses
    // it, so freeing first would recompile (and relink, a blocking wait under SwiftShader) the same
    // program for the replacement on every update.
    if (old) this.retired.push(old);
  }

  private unknownTracks(state: LiveState): LiveState['tracks'] {
    const live = new Set(state.liveTrackIds);
    // Status chips have no stand either, but the roster knows them: not "unknown".
    return state.tracks.filter((t) => t.standId === null && t.chip === undefined && live.has(t.trackId));
  }

  private unknownTagLabels(state: LiveState): LabelSpec[] {
    const r = UNKNOWN_TAG_SIZE_IN / 2;
    return this.unknownTracks(state).map((t) => ({
      key: `tag:${t.trackId}`,
      at: t.pose,
      text: `tag ${t.markerId}?`,
      className: 'tag-label',
      below: [{ xIn: t.pose.xIn - r, yIn: t.pose.yIn - r }, { xIn: t.pose.xIn + r, yIn: t.pose.yIn + r }],
    }));
  }

  private unitLabels(ts: TableState, evaluation: LiveState['evaluation']): LabelSpec[] {
    const sides = sidesOf(ts);
    const only = this.options.unitFilter?.() ?? null;
    const withStatus = this.options.statusMarks ?? true;
    const standsById = new Map(ts.stands.map((s) => [s.id, s]));
    const out: LabelSpec[] = [];
    for (const unit of ts.units) {
      if (only && !only.has(unit.id)) continue;
      const stands = unit.standIds.map((id) => standsById.get(id)).filter((s): s is Stand => s !== undefined);
      if (stands.length === 0) continue;
      const cx = stands.reduce((a, s) => a + s.pose.xIn, 0) / stands.length;
      const cy = stands.reduce((a, s) => a + s.pose.yIn, 0) / stands.length;
      out.push({
        key: `unit:${unit.id}`,
        at: { xIn: cx, yIn: cy },
        // Under the unit on screen, so the name never hides a stand whichever way the unit or view turns.
        below: stands.flatMap((s) => standFootprint(s).corners),
        text: withStatus ? [unit.name, ...statusWords(unit, evaluation?.units[unit.id]?.morale)].join(' · ') : unit.name,
        className: unit.id === this.selectedUnitId ? 'unit-label selected' : 'unit-label',
        color: sidePaint(unit.side, sides).text,
        sizeIn: this.options.unitLabelSizeIn ?? 0.7,
      });
    }
    return out;
  }

  private draw(): void {
    this.dirty = false;
    if (this.renderer.resize()) this.damageAll = true;
    const state = this.state;
    const t0 = performance.now();
    if (state) this.rebuild(state);
    const t1 = performance.now();
    const h = this.homography();
    const { widthPx, heightPx } = this.renderer.sizePx;
    const viewKey = `${h.join(',')}|${widthPx}x${heightPx}`;
    if (viewKey !== this.lastViewKey) {
      this.lastViewKey = viewKey;
      this.damageAll = true;
    }
    this.renderer.setHomography(h);
    // A software rasteriser redraws only what changed (its buffer is kept); a GPU redraws all, which is
    // cheap there and keeps multisampled buffers out of the question.
    const regions = this.damageAll || !this.renderer.software ? null : screenRects(this.damage, h, { widthPx, heightPx });
    if (regions === null || regions.length > 0) {
      this.renderer.render(regions);
      // Freed only once something else was drawn with the new programs (see swap()).
      for (const old of this.retired.splice(0)) disposeTree(old);
      this.hooks.canvasDraws = (this.hooks.canvasDraws ?? 0) + 1;
      this.hooks.lastDrawnAreaPx = regions ? regions.reduce((a, r) => a + r.w * r.h, 0) : widthPx * heightPx;
    }
    this.damage = [];
    this.damageAll = false;
    this.hooks.lastRebuildMs = t1 - t0;
    this.hooks.lastRenderMs = performance.now() - t1;
    if (state) {
      // Placement order is priority order when labels collide: the operator's own measurement first.
      const labels: LabelSpec[] = [
        ...this.extraLabels,
        ...(this.options.unitLabels ? this.unitLabels(state.tableState, state.evaluation) : []),
        ...(this.options.drawStands ? this.unknownTagLabels(state) : []),
        ...this.annotationLabels.map((l) => ({ key: `shape:${l.id}`, at: l.at, text: l.text, className: `shape-label style-${l.style}`, sizeIn: this.options.shapeLabelSizeIn ?? l.sizeIn ?? 0.6 })),
      ];
      this.labels.setLabels(labels);
      const centre = { xIn: state.tableState.table.widthIn / 2, yIn: state.tableState.table.depthIn / 2 };
      // Labels keep off the stands (a small margin on the projector, whose light must miss them).
      this.labels.layout((p) => tableToScreenPx(h, p), this.pxPerInAt(centre), this.standObstacles(state, h, this.options.standMaskMarginIn ?? 0.05));
      this.hooks.lastSeq = state.seq;
      this.hooks.ready = true;
    }
    this.hooks.frames++;
    this.hooks.contextLosses = this.renderer.contextLosses;
  }

  private attachClickOnly(): void {
    this.renderer.canvas.addEventListener('click', (ev) => {
      const at = this.fromPagePx({ xPx: ev.clientX, yPx: ev.clientY });
      this.options.onTableClick?.(at, this.standAt(at));
    });
  }

  private attachPointer(): void {
    const canvas = this.renderer.canvas;
    canvas.style.touchAction = 'none';
    const pointers = new Map<number, ScreenPointPx>();
    let downAt: ScreenPointPx | null = null;
    let moved = 0;
    let drag: DragHandler | null = null;
    let pinchDist = 0;
    const local = (ev: PointerEvent | WheelEvent): ScreenPointPx => {
      const r = canvas.getBoundingClientRect();
      return { xPx: ev.clientX - r.left, yPx: ev.clientY - r.top };
    };
    const ensureFit = (): TableFit => {
      this.homography();
      return this.fit!;
    };
    canvas.addEventListener('wheel', (ev) => {
      ev.preventDefault();
      // One notch (deltaY ~100, or ~3 lines) is a tenth or so; a fast wheel cannot jump, and the zoom stays
      // between a little out from the fitted table and 12× in from it.
      const fit = ensureFit();
      const delta = ev.deltaMode === 1 ? ev.deltaY * 33 : ev.deltaMode === 2 ? ev.deltaY * 300 : ev.deltaY;
      const step = Math.min(1.25, Math.max(0.8, Math.exp(-delta * 0.001)));
      const lo = (this.fittedPxPerIn || fit.pxPerIn) * 0.7;
      const hi = (this.fittedPxPerIn || fit.pxPerIn) * 12;
      const factor = Math.min(hi, Math.max(lo, fit.pxPerIn * step)) / fit.pxPerIn;
      this.fit = zoomFitAt(fit, factor, local(ev));
      this.userZoomed = true;
      this.invalidate();
    }, { passive: false });
    canvas.addEventListener('pointerdown', (ev) => {
      canvas.setPointerCapture(ev.pointerId);
      pointers.set(ev.pointerId, local(ev));
      if (pointers.size === 1) {
        downAt = local(ev);
        moved = 0;
        drag = this.options.onDragStart?.(this.fromPagePx({ xPx: ev.clientX, yPx: ev.clientY })) ?? null;
      } else if (pointers.size === 2) {
        drag = null;
        const [a, b] = [...pointers.values()];
        pinchDist = Math.hypot(a!.xPx - b!.xPx, a!.yPx - b!.yPx);
        moved = Infinity; // a pinch is never a click
      }
    });
    canvas.addEventListener('pointermove', (ev) => {
      const prev = pointers.get(ev.pointerId);
      if (!prev) {
        if (this.options.cursorAt) {
          const at = this.fromPagePx({ xPx: ev.clientX, yPx: ev.clientY });
          const cursor = this.options.cursorAt(at, this.standAt(at));
          if (canvas.style.cursor !== cursor) canvas.style.cursor = cursor;
        }
        return;
      }
      const now = local(ev);
      pointers.set(ev.pointerId, now);
      if (pointers.size === 1 && drag) {
        moved += Math.hypot(now.xPx - prev.xPx, now.yPx - prev.yPx);
        if (moved > CLICK_SLOP_PX) drag(this.fromPagePx({ xPx: ev.clientX, yPx: ev.clientY }), 'move');
      } else if (pointers.size === 1) {
        moved += Math.hypot(now.xPx - prev.xPx, now.yPx - prev.yPx);
        if (moved > CLICK_SLOP_PX) {
          this.fit = panFit(ensureFit(), now.xPx - prev.xPx, now.yPx - prev.yPx);
          this.userZoomed = true;
          this.invalidate();
        }
      } else if (pointers.size === 2) {
        const [a, b] = [...pointers.values()];
        const dist = Math.hypot(a!.xPx - b!.xPx, a!.yPx - b!.yPx);
        if (pinchDist > 0) {
          const mid = { xPx: (a!.xPx + b!.xPx) / 2, yPx: (a!.yPx + b!.yPx) / 2 };
          this.fit = zoomFitAt(ensureFit(), dist / pinchDist, mid);
          this.userZoomed = true;
          this.invalidate();
        }
        pinchDist = dist;
      }
    });
    const up = (ev: PointerEvent) => {
      if (drag && pointers.size === 1) {
        const finish = drag;
        drag = null;
        // A press on a vertex that did not move is a click after all (adds a point while drawing).
        const dragged = moved > CLICK_SLOP_PX && ev.type === 'pointerup';
        finish(this.fromPagePx({ xPx: ev.clientX, yPx: ev.clientY }), dragged ? 'end' : 'cancel');
        if (dragged) {
          pointers.delete(ev.pointerId);
          downAt = null;
          return;
        }
      }
      const wasClick = pointers.size <= 1 && downAt !== null && moved <= CLICK_SLOP_PX;
      pointers.delete(ev.pointerId);
      if (pointers.size < 2) pinchDist = 0;
      if (wasClick && ev.type === 'pointerup' && this.options.onTableClick) {
        const at = this.fromPagePx({ xPx: ev.clientX, yPx: ev.clientY });
        this.options.onTableClick(at, this.standAt(at));
      }
      if (pointers.size === 0) downAt = null;
    };
    canvas.addEventListener('pointerup', up);
    canvas.addEventListener('pointercancel', up);
  }
}
