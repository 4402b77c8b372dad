/**
 * One live table on screen: store in, canvas and labels out. Every page (map, operator, projector,
 * stream overlay) is this with different options and a little chrome around it. Rebuilds only the groups
 * whose input changed (terrain, stands, annotations), and draws at most once per animation frame.
 */
import type * as THREE from 'three';
import type { LabelShape, LayerId, PointIn, Stand, TableState } from '@muster/rules';
import type { LiveState } from '@muster/protocol';
import { multiplyHomography } from '@muster/table-mapping';
import { screenPxToTable, tableToScreenPx, type Homography, type ScreenPointPx } from '../mapping/homography.ts';
import { fitTable, fitToHomography, panFit, zoomFitAt, type TableFit } from '../mapping/tableFit.ts';
import { pointInPolygon, standFootprint } from '../geometry/standFootprint.ts';
import type { LiveStore, LiveStoreSnapshot } from '../state/liveStore.ts';
import { buildAnnotations } from './annotationLayer.ts';
import { LabelLayer, type LabelSpec } from './labelLayer.ts';
import { disposeTree } from './meshFactory.ts';
import { sidePaint } from './palette.ts';
import { TableRenderer } from './tableRenderer.ts';
import { buildChipsGroup, buildClothGroup, buildStandsGroup, buildTerrainGroup, buildUnknownTagsGroup, sidesOf, UNKNOWN_TAG_SIZE_IN } from './tableSceneBuilder.ts';
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
  /** A click (not a drag) on the table. */
  readonly onTableClick?: (at: PointIn, stand: Stand | null) => void;
  /**
   * A press on the table: return a handler to take the gesture as a drag (moving a terrain vertex),
   * or null to let it pan/click as usual. The handler gets every move, then 'end' on release after a
   * real drag or 'cancel' (a press that did not move is handled as a click).
   */
  readonly onDragStart?: (at: PointIn) => DragHandler | null;
}

/** Follows one drag gesture on the table. */
export type DragHandler = (at: PointIn, phase: 'move' | 'end' | 'cancel') => void;

/** A fixed table → pixels map measured for some device (projector, camera), in that device's pixels. */
export interface Calibration {
  readonly homography: Homography;
  readonly sizePx: { readonly widthPx: number; readonly heightPx: number };
}

/** Movement under this many CSS px between press and release is a click, not a pan. */
const CLICK_SLOP_PX = 6;

export class LiveTableView {
  readonly renderer: TableRenderer;
  readonly labels: LabelLayer;
  readonly hooks: MusterHooks;
  private state: LiveState | null = null;
  private selectedUnitId: string | null = null;
  private layers: Set<LayerId>;
  private fit: TableFit | null = null;
  private userZoomed = false;
  private frameRequested = false;
  private extraLabels: readonly LabelSpec[] = [];
  private annotationLabels: readonly LabelShape[] = [];
  // Inputs of the last build of each group, compared by identity (the store replaces what changed).
  private built: { table?: unknown; terrain?: unknown; stands?: unknown; units?: unknown; occludedKey?: string; tracks?: unknown; clipTable?: unknown; shapes?: unknown; selection?: string | null; layersKey?: string } = {};

  constructor(private readonly options: LiveTableViewOptions) {
    this.layers = new Set(options.layers);
    this.renderer = new TableRenderer(options.container, { background: options.background, onContextRestored: () => this.invalidate() });
    this.labels = new LabelLayer(options.container);
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
    });
    options.store.subscribe((s) => this.onStore(s));
    this.onStore(options.store.snapshot);
    new ResizeObserver(() => {
      if (this.renderer.resize()) {
        if (!this.userZoomed) this.fit = null;
        this.invalidate();
      }
    }).observe(options.container);
    if (options.interactive) this.attachPointer();
    else if (options.onTableClick) this.attachClickOnly();
  }

  get currentState(): LiveState | null {
    return this.state;
  }

  get selection(): string | null {
    return this.selectedUnitId;
  }

  selectUnit(unitId: string | null): void {
    this.selectedUnitId = unitId;
    this.hooks.selectedUnitId = unitId;
    this.invalidate();
  }

  setLayerVisible(layer: LayerId, visible: boolean): void {
    if (visible) this.layers.add(layer);
    else this.layers.delete(layer);
    this.invalidate();
  }

  get visibleLayers(): ReadonlySet<LayerId> {
    return this.layers;
  }

  /**
   * Extra groups in table inches: the measure line and terrain being drawn over the table, the camera
   * backdrop under it (each group's renderOrder places it).
   */
  setOverlay(name: 'measure' | 'draft' | 'backdrop', group: THREE.Group | null): void {
    const old = this.renderer.replaceLayer(name, group);
    if (old) disposeTree(old);
    this.invalidate();
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
    if (!this.fit) this.fit = fitTable(table, { widthPx, heightPx }, this.options.interactive ? 12 : 0, this.options.allowQuarterTurn ?? false);
    return fitToHomography(this.fit);
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

  /** The stand whose footprint contains the point, else the nearest within half an inch. */
  standAt(p: PointIn): Stand | null {
    const stands = this.state?.tableState.stands ?? [];
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

  invalidate(): void {
    if (this.frameRequested) return;
    this.frameRequested = true;
    requestAnimationFrame(() => {
      this.frameRequested = false;
      this.draw();
    });
  }

  private onStore(s: LiveStoreSnapshot): void {
    this.hooks.connection = s.connection;
    if (s.state !== this.state) {
      if (s.state && this.state && s.state.tableState.table !== this.state.tableState.table && !this.userZoomed) this.fit = null;
      this.state = s.state;
      this.invalidate();
    }
  }

  private rebuild(state: LiveState): void {
    const ts = state.tableState;
    const o = this.options;
    if (o.drawCloth && this.built.table !== ts.table) {
      this.swap('cloth', buildClothGroup(ts.table));
      this.built.table = ts.table;
    }
    if (o.drawTerrain && this.built.terrain !== ts.terrain) {
      this.swap('terrain', buildTerrainGroup(ts.terrain));
      this.built.terrain = ts.terrain;
    }
    const occluded = new Set(state.tracks.filter((t) => t.occluded && t.standId !== null).map((t) => t.standId!));
    const occludedKey = [...occluded].sort().join(',');
    if (
      o.drawStands &&
      (this.built.stands !== ts.stands || this.built.units !== ts.units || this.built.selection !== this.selectedUnitId || this.built.occludedKey !== occludedKey)
    ) {
      this.swap('stands', buildStandsGroup(ts, this.selectedUnitId, occluded));
      this.built.stands = ts.stands;
      this.built.units = ts.units;
      this.built.occludedKey = occludedKey;
    }
    if (o.drawStands && this.built.tracks !== state.tracks) {
      this.swap('unknown-tags', buildUnknownTagsGroup(this.unknownTracks(state)));
      const live = new Set(state.liveTrackIds);
      this.swap('chips', buildChipsGroup(state.tracks.flatMap((t) => (t.chip && live.has(t.trackId) ? [{ chip: t.chip, pose: t.pose }] : []))));
      this.built.tracks = state.tracks;
    }
    const shapes = state.evaluation?.shapes ?? [];
    const layersKey = [...this.layers].sort().join(',');
    if (this.built.shapes !== shapes || this.built.selection !== this.selectedUnitId || this.built.layersKey !== layersKey || this.built.clipTable !== ts.table) {
      const build = buildAnnotations(shapes, {
        layers: this.layers,
        unitId: o.filterBySelection ? this.selectedUnitId : null,
        strokeScale: o.strokeScale ?? 1,
        table: ts.table,
      });
      this.built.clipTable = ts.table;
      this.swap('annotations', build.group);
      this.annotationLabels = build.labels;
      this.built.shapes = shapes;
      this.built.layersKey = layersKey;
    }
    this.built.selection = this.selectedUnitId;
  }

  private swap(name: string, group: THREE.Group): void {
    const old = this.renderer.replaceLayer(name, group);
    if (old) disposeTree(old);
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

  private unitLabels(ts: TableState): LabelSpec[] {
    const sides = sidesOf(ts);
    const standsById = new Map(ts.stands.map((s) => [s.id, s]));
    const out: LabelSpec[] = [];
    for (const unit of ts.units) {
      const stands = unit.standIds.map((id) => standsById.get(id)).filter((s): s is Stand => s !== undefined);
      if (stands.length === 0) continue;
      const cx = stands.reduce((a, s) => a + s.pose.xIn, 0) / stands.length;
      const cy = stands.reduce((a, s) => a + s.pose.yIn, 0) / stands.length;
      out.push({
        key: `unit:${unit.id}`,
        at: { xIn: cx, yIn: cy },
        // Under the unit on screen, so the name never hides a stand whichever way the unit or view turns.
        below: stands.flatMap((s) => standFootprint(s).corners),
        text: unit.name,
        className: unit.id === this.selectedUnitId ? 'unit-label selected' : 'unit-label',
        color: sidePaint(unit.side, sides).text,
        sizeIn: 0.7,
      });
    }
    return out;
  }

  private draw(): void {
    this.renderer.resize();
    const state = this.state;
    const t0 = performance.now();
    if (state) this.rebuild(state);
    const t1 = performance.now();
    const h = this.homography();
    this.renderer.setHomography(h);
    this.renderer.render();
    this.hooks.lastRebuildMs = t1 - t0;
    this.hooks.lastRenderMs = performance.now() - t1;
    if (state) {
      // Placement order is priority order when labels collide: the operator's own measurement first.
      const labels: LabelSpec[] = [
        ...this.extraLabels,
        ...(this.options.unitLabels ? this.unitLabels(state.tableState) : []),
        ...(this.options.drawStands ? this.unknownTagLabels(state) : []),
        ...this.annotationLabels.map((l) => ({ key: `shape:${l.id}`, at: l.at, text: l.text, className: `shape-label style-${l.style}`, sizeIn: l.sizeIn ?? 0.6 })),
      ];
      this.labels.setLabels(labels);
      const centre = { xIn: state.tableState.table.widthIn / 2, yIn: state.tableState.table.depthIn / 2 };
      this.labels.layout((p) => tableToScreenPx(h, p), this.pxPerInAt(centre));
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
      this.fit = zoomFitAt(ensureFit(), Math.exp(-ev.deltaY * 0.0015), local(ev));
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
      if (!prev) return;
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
