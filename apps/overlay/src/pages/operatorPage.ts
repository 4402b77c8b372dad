/**
 * The operator's view (`/operator.html?token=...`): the map plus a panel. Click a stand to select its
 * unit: its reach, arcs and charge show on the map and the panel lists fire targets with dice and every
 * modifier with its rulebook source. Tools: measure stand to stand (edge to edge, tolerance stated),
 * draw terrain, set unit status, assign unknown tags, draw action cards and roll dice (service side,
 * seeded, logged). Every change is an operator message; the panel shows the server's answer.
 */
import * as THREE from 'three';
import type { GameLogEntry, LiveState, OperatorMessage, UnitStatusPatch } from '@muster/protocol';
import type { AreaTerrainKind, LinearTerrainKind, PointIn, Stand, Terrain, UnitEvaluation, UnitStatus } from '@muster/rules';
import { edgeDistance } from '../geometry/edgeDistance.ts';
import { polylineStrip } from '../geometry/polylineStrip.ts';
import { standFootprint } from '../geometry/standFootprint.ts';
import { measureTolerance } from '../state/measureTolerance.ts';
import { moveTerrainVertex, nearestTerrainVertex, piecePoints } from '../terrain/terrainVertex.ts';
import { breakdownTable, refusalText } from '../ui/formatBreakdown.ts';
import { splitFirePanel } from '../ui/splitFirePanel.ts';
import { splitFireRows } from '../ui/splitFireRows.ts';
import { commandText, hastyWorksText } from '../ui/unitReadingText.ts';
import { unitWarningLines, unitWarningsKey } from '../ui/unitWarnings.ts';
import { unitWarningsList } from '../ui/unitWarningsList.ts';
import { LiveTableView, type DragHandler } from '../views/liveTableView.ts';
import { addIfAny, trianglesMesh } from '../views/meshFactory.ts';
import { RENDER_ORDER } from '../views/renderOrder.ts';
import { ageText, connectionBanner, h, startLive } from './bootstrap.ts';
import { fullTableView } from './fullTableView.ts';
import { layerMenu } from './layerMenu.ts';
import { cameraBackdropControl } from './cameraBackdropControl.ts';
import { rulesLagText } from '../net/rulesLag.ts';
import { takeOperatorToken } from './operatorToken.ts';
import { FocusChannel } from './focusChannel.ts';
import { rulesetChooser } from './rulesetChooser.ts';
import { selectedTape, type TapeEnds } from './tapeOverlay.ts';
import { whyNotList } from '../ui/whyNotList.ts';
import { rulesetStatusEditor } from '../ui/rulesetStatusEditor.ts';
import { statusChangeWords, withStatusValue } from '../ui/rulesetStatusFields.ts';
import { rulesetStatusFields } from './rulesetFieldsSource.ts';
import { combinedChargeLines, commanderLines, tableWideSection } from '../ui/tableWidePanel.ts';
import { combinedChargesOf } from '../ui/tableWideText.ts';
import { gameHud } from './gameHud.ts';
import { replayTimelineBar } from './replayTimelineBar.ts';
import { turnPngButton } from './turnPng.ts';
import { poolOddsText } from '../ui/diceOdds.ts';
import { cardText } from '../ui/cardText.ts';
import { logEntryText } from '../ui/logEntryText.ts';
import { statusWords, readableId } from '../ui/statusWords.ts';
import { moraleText } from '../ui/unitReadingText.ts';
import { breakdownAmount } from '../ui/formatBreakdown.ts';
import { pointInPolygon } from '../geometry/standFootprint.ts';
import { isGhostStand } from '../geometry/ghostMarks.ts';
import { resolutionPanel } from './resolutionPanel.ts';
import { followForcedMoves } from './forcedMoveOverlay.ts';

const token = takeOperatorToken();
const message = h('div', { className: 'message', role: 'status' });
message.id = 'message';
function say(text: string, error = false): void {
  message.textContent = text;
  message.classList.toggle('error', error);
}
const { store, connection } = startLive(token, (m) => say(m, true));

async function act(action: OperatorMessage, done: string): Promise<boolean> {
  const reply = await connection.sendAction(action);
  if (reply.type === 'error') {
    say(`Not done (${readableId(action.type)}): ${reply.message}`, true);
    return false;
  }
  say(done);
  return true;
}

// ---- layout ----------------------------------------------------------------------------------------------
const status = h('span', { className: 'status' }, 'connecting…');
const stage = h('div', { className: 'stage' });
const panel = h('aside', { className: 'panel' });
const topbar = h('header', { className: 'topbar' }, h('h1', {}, 'Muster · operator'), status, h('span', { className: 'spacer' }));
document.body.append(topbar, h('main', { className: 'operator-main' }, stage, panel));
connectionBanner(stage, store);
if (!token) say('No operator token in the URL (?token=...): changes will be refused.', true);

type Mode = 'select' | 'measure' | 'draw';
let mode: Mode = 'select';
let measureIds: string[] = [];
/** A point-to-point measurement (drag), in table inches; null when none. */
let measureLine: { from: PointIn; to: PointIn; fromStand: Stand | null; toStand: Stand | null } | null = null;
// Shared with every view over the wire (set-focus) and with pages in this browser at once.
const focusChannel = new FocusChannel({ connection });
let draft: PointIn[] = [];

const view = fullTableView({
  view: 'operator',
  container: stage,
  store,
  onTableClick: (at, stand) => onTableClick(at, stand),
  onDragStart: (at) => (mode === 'measure' ? startMeasureDrag(at) : startVertexDrag(at)),
  // The cursor says what a click will do: pick a unit, measure, or add a corner.
  cursorAt: (_at, stand) => (mode === 'select' ? (stand ? 'pointer' : 'grab') : mode === 'measure' ? 'crosshair' : 'cell'),
});
gameHud(stage, store, { className: 'hud hud-map' });
followForcedMoves(view, store, 0.15);
const fitButton = h('button', { type: 'button', title: 'Fit the table to the view (F)' }, 'Fit');
fitButton.addEventListener('click', () => view.resetZoom());
topbar.append(layerMenu(view), cameraBackdropControl(view, store), fitButton, turnPngButton(view));
// In a replay: the timeline, and with the token seek (click a turn or an action) and pause/play.
void replayTimelineBar(stage, store, { token, onMessage: say });

// ---- tools -----------------------------------------------------------------------------------------------
const modeButtons = new Map<Mode, HTMLButtonElement>();
const toolHint = h('div', { className: 'hint' });
const helpButton = h('button', { type: 'button', title: 'Keyboard shortcuts (?)' }, '?');
const helpBox = h('div', { className: 'help-box', hidden: true });
helpBox.id = 'shortcuts';
helpButton.addEventListener('click', () => (helpBox.hidden = !helpBox.hidden));
stage.append(helpBox);
function setMode(next: Mode): void {
  mode = next;
  for (const [m, b] of modeButtons) b.classList.toggle('active', m === mode);
  measureIds = [];
  measureLine = null;
  draft = [];
  drawMeasure();
  drawDraft();
  toolHint.textContent =
    mode === 'select' ? 'Click a stand to select its unit; click empty table to clear.'
    : mode === 'measure' ? 'Drag from any point or stand to another for a live reading; or click two stands for edge to edge.'
    : 'Click points on the map, then Finish. Drag a terrain corner to move it.';
  drawPanel.hidden = mode !== 'draw';
}
const toolRow = h('div', { className: 'row' });
const MODE_TIPS: Record<Mode, string> = { select: 'Select a unit (S)', measure: 'Measure like a tape (M)', draw: 'Draw or edit terrain (D)' };
for (const [m, label] of [['select', 'Select'], ['measure', 'Measure'], ['draw', 'Draw terrain']] as const) {
  const b = h('button', { type: 'button', title: MODE_TIPS[m] }, label);
  b.dataset.mode = m;
  b.addEventListener('click', () => setMode(m));
  modeButtons.set(m, b);
  toolRow.append(b);
}

const AREA_KINDS: AreaTerrainKind[] = ['rough', 'swamp', 'open-woods', 'thick-woods', 'thicket', 'farm', 'town', 'city'];
const LINEAR_KINDS: LinearTerrainKind[] = ['fence', 'wall', 'brook', 'stream', 'river', 'hasty-works', 'entrenchment', 'abatis', 'chevaux-de-frise', 'sunken-road'];
const kindSelect = h('select', { title: 'What to draw' });
kindSelect.id = 'draw-kind';
for (const k of AREA_KINDS) kindSelect.append(h('option', { value: `area:${k}` }, `Area: ${k}`));
for (const k of LINEAR_KINDS) kindSelect.append(h('option', { value: `linear:${k}` }, `Line: ${k}`));
kindSelect.append(h('option', { value: 'road' }, 'Road'));
for (const level of [1, 2, 3]) kindSelect.append(h('option', { value: `elevation:${level}` }, `Hill, level ${level}`));
const finishButton = h('button', { type: 'button' }, 'Finish');
finishButton.id = 'draw-finish';
const undoButton = h('button', { type: 'button' }, 'Undo point');
const cancelButton = h('button', { type: 'button' }, 'Cancel');
const terrainList = h('ul', { className: 'hint' });
const drawPanel = h('div', {}, h('div', { className: 'row' }, kindSelect), h('div', { className: 'row' }, finishButton, undoButton, cancelButton), h('div', { className: 'hint' }, 'Existing terrain (✕ removes):'), terrainList);
undoButton.addEventListener('click', () => { draft.pop(); drawDraft(); });
cancelButton.addEventListener('click', () => { draft = []; drawDraft(); });
finishButton.addEventListener('click', () => void finishDraft());

/** The next free readable id for a kind: "rough-1", "rough-2"... */
function newId(prefix: string, t: Terrain): string {
  const taken = new Set([...t.areas, ...t.linear, ...t.roads, ...t.elevations].map((p) => p.id));
  let n = 1;
  while (taken.has(`${prefix}-${n}`)) n++;
  return `${prefix}-${n}`;
}

/** A piece of the same kind with (nearly) the same points already exists: a double click on Finish, or a copy. */
function duplicateOf(t: Terrain, group: string, kind: string | undefined, pts: readonly PointIn[]): string | null {
  const same = (a: readonly PointIn[]) => a.length === pts.length && a.every((p, i) => Math.hypot(p.xIn - pts[i]!.xIn, p.yIn - pts[i]!.yIn) < 0.25);
  const pieces: [string, string, readonly PointIn[]][] = [
    ...t.areas.map((a) => [a.id, `area:${a.kind}`, a.vertices] as [string, string, readonly PointIn[]]),
    ...t.linear.map((l) => [l.id, `linear:${l.kind}`, l.points] as [string, string, readonly PointIn[]]),
    ...t.roads.map((r) => [r.id, 'road', r.points] as [string, string, readonly PointIn[]]),
    ...t.elevations.map((e) => [e.id, `elevation:${e.level}`, e.vertices] as [string, string, readonly PointIn[]]),
  ];
  const key = kind === undefined ? group : `${group}:${kind}`;
  return pieces.find(([, k, p]) => k === key && same(p))?.[0] ?? null;
}

// ---- undo --------------------------------------------------------------------------------------------
/** Operator edits that can be taken back: each entry is the message that restores what was there. */
const undoStack: { label: string; restore: OperatorMessage }[] = [];
const undoEdit = h('button', { type: 'button', title: 'Undo the last terrain or status edit, or an applied outcome (Ctrl+Z)', disabled: true }, 'Undo');
undoEdit.id = 'undo';
function pushUndo(label: string, restore: OperatorMessage): void {
  undoStack.push({ label, restore });
  if (undoStack.length > 50) undoStack.shift();
  undoEdit.disabled = false;
  undoEdit.title = `Undo: ${label} (Ctrl+Z)`;
}
async function undoLast(): Promise<void> {
  const last = undoStack.pop();
  undoEdit.disabled = undoStack.length === 0;
  undoEdit.title = undoStack.length ? `Undo: ${undoStack.at(-1)!.label} (Ctrl+Z)` : 'Nothing to undo';
  if (!last) return say('Nothing to undo.');
  await act(last.restore, `Undone: ${last.label}.`);
}
undoEdit.addEventListener('click', () => void undoLast());
// After the roll: what the selected unit may roll for, the outcome, Apply (Undo takes it back).
const rollPanel = resolutionPanel({ store, send: (a) => connection.sendAction(a), say, pushUndo });
/** Sends a terrain change that Undo can take back. */
async function editTerrain(terrain: Terrain, done: string): Promise<boolean> {
  const before = store.snapshot.state?.tableState.terrain;
  const ok = await act({ type: 'set-terrain', terrain }, done);
  if (ok && before) pushUndo(done.replace(/\.$/, '').toLowerCase(), { type: 'set-terrain', terrain: before });
  return ok;
}

async function finishDraft(): Promise<void> {
  const state = store.snapshot.state;
  if (!state) return;
  const [group, kind] = kindSelect.value.split(':') as [string, string | undefined];
  const closedShape = group === 'area' || group === 'elevation';
  if (draft.length < (closedShape ? 3 : 2)) {
    say(`Need at least ${closedShape ? 3 : 2} points.`, true);
    return;
  }
  const t = state.tableState.terrain;
  const pts = draft.map((p) => ({ xIn: round2(p.xIn), yIn: round2(p.yIn) }));
  const dup = duplicateOf(t, group, kind, pts);
  if (dup) {
    say(`${dup} is already there with the same corners: not added again.`, true);
    return;
  }
  let terrain: Terrain;
  let id: string;
  if (group === 'area') terrain = { ...t, areas: [...t.areas, { id: (id = newId(kind!, t)), kind: kind as AreaTerrainKind, vertices: pts }] };
  else if (group === 'linear') terrain = { ...t, linear: [...t.linear, { id: (id = newId(kind!, t)), kind: kind as LinearTerrainKind, points: pts }] };
  else if (group === 'road') terrain = { ...t, roads: [...t.roads, { id: (id = newId('road', t)), points: pts }] };
  else terrain = { ...t, elevations: [...t.elevations, { id: (id = newId('hill', t)), level: Number(kind), vertices: pts }] };
  if (await editTerrain(terrain, `Added ${id}.`)) {
    draft = [];
    drawDraft();
  }
}

function round2(v: number): number {
  return Math.round(v * 100) / 100;
}

let renderedTerrain: unknown;
function renderTerrainList(state: LiveState): void {
  const t = state.tableState.terrain;
  // Only on change: rebuilding buttons at the frame rate would swallow clicks.
  if (t === renderedTerrain) return;
  renderedTerrain = t;
  const items: [string, string, () => Terrain][] = [
    ...t.areas.map((a) => [a.id, a.kind, () => ({ ...t, areas: t.areas.filter((x) => x !== a) })] as [string, string, () => Terrain]),
    ...t.linear.map((l) => [l.id, l.kind, () => ({ ...t, linear: t.linear.filter((x) => x !== l) })] as [string, string, () => Terrain]),
    ...t.roads.map((r) => [r.id, 'road', () => ({ ...t, roads: t.roads.filter((x) => x !== r) })] as [string, string, () => Terrain]),
    ...t.elevations.map((e) => [e.id, `hill ${e.level}`, () => ({ ...t, elevations: t.elevations.filter((x) => x !== e) })] as [string, string, () => Terrain]),
  ];
  terrainList.replaceChildren(
    ...items.map(([id, kind, without]) => {
      // Two steps: ✕ asks, "Remove?" does it (and Undo brings it back); the ask lapses after 4 s.
      const del = h('button', { type: 'button', title: `Remove ${id} (asks first; Undo brings it back)`, className: 'remove' }, '✕');
      let armed: ReturnType<typeof setTimeout> | null = null;
      del.addEventListener('click', () => {
        if (armed === null) {
          del.textContent = 'Remove?';
          del.classList.add('armed');
          armed = setTimeout(() => {
            armed = null;
            del.textContent = '✕';
            del.classList.remove('armed');
          }, 4000);
          return;
        }
        clearTimeout(armed);
        armed = null;
        void editTerrain(without(), `Removed ${id}.`);
      });
      const li = h('li', {}, `${readableId(kind)} · ${id} `, del);
      li.dataset.terrain = id;
      return li;
    }),
  );
}

function onTableClick(at: PointIn, stand: Stand | null): void {
  if (mode === 'draw') {
    draft.push(at);
    drawDraft();
    return;
  }
  if (mode === 'measure') {
    if (!stand) return;
    measureLine = null;
    measureIds = measureIds.length >= 2 ? [stand.id] : [...measureIds, stand.id];
    drawMeasure();
    return;
  }
  const unitId = stand?.unitId ?? null;
  const isUnit = unitId !== null && (store.snapshot.state?.tableState.units.some((u) => u.id === unitId) ?? false);
  select(isUnit ? unitId : null);
}

/** Selects a unit everywhere: the map, the panel, the projector and overlay pages in this browser. */
function select(unitId: string | null): void {
  // (Zoomed in, the view follows the selection.)
  view.selectUnit(unitId);
  focusChannel.publishFocus(unitId);
  renderSelection(true);
}

/** Grab radius for a terrain corner, CSS px: a fingertip on a phone. */
const GRAB_RADIUS_PX = 14;

/** In draw mode, pressing on a terrain corner drags it; the release saves the terrain. */
function startVertexDrag(at: PointIn): DragHandler | null {
  const state = store.snapshot.state;
  if (mode !== 'draw' || !state) return null;
  const a = view.toPagePx(at);
  const b = view.toPagePx({ xIn: at.xIn + 1, yIn: at.yIn });
  const pxPerIn = Math.max(1e-6, Math.hypot(b.xPx - a.xPx, b.yPx - a.yPx));
  const ref = nearestTerrainVertex(state.tableState.terrain, at, GRAB_RADIUS_PX / pxPerIn);
  if (!ref) return null;
  const base = state.tableState.terrain;
  return (to, phase) => {
    const to2 = { xIn: round2(to.xIn), yIn: round2(to.yIn) };
    if (phase === 'cancel') {
      drawDraft();
      return;
    }
    const edited = moveTerrainVertex(base, ref, to2);
    if (phase === 'move') {
      const pts = piecePoints(edited, ref);
      const group = new THREE.Group();
      addIfAny(group, trianglesMesh(polylineStrip(ref.closed ? [...pts, pts[0]!] : pts, 0.15), { color: 0xffd400, opacity: 0.95 }, RENDER_ORDER.draft));
      view.setOverlay('draft', group);
      return;
    }
    void editTerrain(edited, `Moved a corner of ${ref.pieceId}.`).then(() => drawDraft());
  };
}

function drawDraft(): void {
  if (draft.length === 0) {
    view.setOverlay('draft', null);
    return;
  }
  const group = new THREE.Group();
  const closedShape = !kindSelect.value.startsWith('linear') && kindSelect.value !== 'road';
  const line = closedShape && draft.length > 2 ? [...draft, draft[0]!] : draft;
  addIfAny(group, trianglesMesh(polylineStrip(line, 0.15), { color: 0xffffff, opacity: 0.95 }, RENDER_ORDER.draft));
  for (const p of draft) {
    const s = 0.3;
    addIfAny(group, trianglesMesh(polylineStrip([{ xIn: p.xIn - s, yIn: p.yIn }, { xIn: p.xIn + s, yIn: p.yIn }], 2 * s), { color: 0xffd400, opacity: 1 }, RENDER_ORDER.draft));
  }
  view.setOverlay('draft', group);
}

const measureOut = h('div', { className: 'hint measure-out' });
measureOut.id = 'measure-result';

/** The nearest point of a stand's edge to `toward` (a tape laid from the base's edge). */
function standEdgePoint(stand: Stand, toward: PointIn): PointIn {
  const corners = standFootprint(stand).corners;
  if (pointInPolygon(toward, corners)) return toward;
  let best = corners[0];
  let bestD = Infinity;
  for (let i = 0; i < 4; i++) {
    const a = corners[i]!;
    const b = corners[(i + 1) % 4]!;
    const dx = b.xIn - a.xIn;
    const dy = b.yIn - a.yIn;
    const t = Math.max(0, Math.min(1, ((toward.xIn - a.xIn) * dx + (toward.yIn - a.yIn) * dy) / (dx * dx + dy * dy || 1)));
    const p = { xIn: a.xIn + dx * t, yIn: a.yIn + dy * t };
    const d = Math.hypot(p.xIn - toward.xIn, p.yIn - toward.yIn);
    if (d < bestD) {
      bestD = d;
      best = p;
    }
  }
  return best;
}

/** In measure mode a drag lays a tape from the press to the pointer, snapping to stand edges. */
function startMeasureDrag(at: PointIn): DragHandler | null {
  const fromStand = view.standAt(at);
  return (to, phase) => {
    // A press that did not move is a click (two clicked stands measure edge to edge).
    if (phase === 'cancel') return;
    measureIds = [];
    const toStand = view.standAt(to);
    // Snap to another unit, or between a unit and its own ghost ("how far did it move?").
    const target = toStand && (toStand.unitId !== fromStand?.unitId || isGhostStand(toStand) !== isGhostStand(fromStand)) ? toStand : null;
    const end = target ? standEdgePoint(target, fromStand ? fromStand.pose : at) : to;
    const start = fromStand ? standEdgePoint(fromStand, end) : at;
    measureLine = { from: start, to: end, fromStand, toStand: target };
    drawMeasure();
  };
}

/** A tape end's unit for the fire and charge questions: none for a free point or a ghost. */
function tapeUnit(stand: Stand | null): string | null {
  return stand && !isGhostStand(stand) ? stand.unitId : null;
}

/** The tape, the selected unit's bands along it and its answers; the first line is the distance. */
function showTape(state: LiveState, ends: TapeEnds, labelText: string, first: string): void {
  const tape = selectedTape(state, view.selection, ends);
  view.setOverlay('measure', tape.group);
  const mid = { xIn: (ends.from.xIn + ends.to.xIn) / 2, yIn: (ends.from.yIn + ends.to.yIn) / 2 };
  view.setExtraLabels([{ key: 'measure', at: mid, text: labelText, className: 'measure-label' }, ...tape.labels]);
  measureOut.replaceChildren(h('div', {}, first), ...tape.answers.map((a) => h('div', { className: 'tape-answer' }, a)));
  measureOut.dataset.bands = String(tape.bandCount);
}

/** The evaluation the tape's answers were last read from. */
let tapeEvaluation: unknown = null;

function drawMeasure(): void {
  const state = store.snapshot.state;
  tapeEvaluation = state?.evaluation ?? null;
  if (measureLine && state) {
    const { from, to, fromStand, toStand } = measureLine;
    const d = Math.hypot(to.xIn - from.xIn, to.yIn - from.yIn);
    const tol = measureTolerance(state.profile);
    const names = `${fromStand ? standName(state, fromStand) : 'point'} → ${toStand ? standName(state, toStand) : 'point'}`;
    showTape(state, { from, to, fromUnitId: tapeUnit(fromStand), toUnitId: tapeUnit(toStand) }, `${d.toFixed(1)}"`, `${names}: ${d.toFixed(2)}" ${tol.text}`);
    focusChannel.publishMeasure({ from, to, text: `${d.toFixed(1)}"`, fromStandId: fromStand?.id ?? null, toStandId: toStand?.id ?? null });
    return;
  }
  // A clicked ghost measures like the stand as it stood.
  const stands = measureIds.map((id) => view.standById(id)).filter((s): s is Stand => s !== null);
  if (stands.length < 2 || !state) {
    view.setOverlay('measure', null);
    view.setExtraLabels([]);
    focusChannel.publishMeasure(null);
    measureOut.textContent = stands.length === 1 && state ? `From ${standName(state, stands[0]!)}: click a second stand.` : '';
    return;
  }
  const [a, b] = stands as [Stand, Stand];
  const d = edgeDistance(standFootprint(a).corners, standFootprint(b).corners);
  const tol = measureTolerance(state.profile);
  const text = `${d.distanceIn.toFixed(2)}" ${tol.text}`;
  showTape(state, { from: d.fromPoint, to: d.toPoint, fromUnitId: tapeUnit(a), toUnitId: tapeUnit(b) }, `${d.distanceIn.toFixed(2)}"`, `${standName(state, a)} → ${standName(state, b)}: ${text}, edge to edge`);
  focusChannel.publishMeasure({ from: d.fromPoint, to: d.toPoint, text: `${d.distanceIn.toFixed(1)}"`, fromStandId: a.id, toStandId: b.id });
}

// ---- selected unit ---------------------------------------------------------------------------------------
const unitBox = h('div');
unitBox.id = 'unit-panel';
const statusBox = h('div');
let renderedUnitEval: UnitEvaluation | undefined;
let renderedUnitId: string | null = null;
let renderedUnitWarnings = '';

/** The unit's name, and "(before its move)" for a ghost. */
function standName(state: LiveState, stand: Stand): string {
  return isGhostStand(stand) ? `${unitName(state, stand.unitId)} (before its move)` : unitName(state, stand.unitId);
}

function unitName(state: LiveState, id: string): string {
  return state.tableState.units.find((u) => u.id === id)?.name ?? id;
}

/** While a selected unit is moving its numbers change every frame; the panel follows at most this often, so its buttons stay clickable and its open/closed breakdowns stay put. */
const PANEL_REFRESH_MS = 700;
/** While the pointer is over the panel. */
const PANEL_HOVER_REFRESH_MS = 4000;
let panelHovered = false;
let panelPressed = false;
unitBox.addEventListener('pointerenter', () => (panelHovered = true));
unitBox.addEventListener('pointerleave', () => (panelHovered = false));
unitBox.addEventListener('pointerdown', () => (panelPressed = true));
window.addEventListener('pointerup', () => (panelPressed = false), true);
window.addEventListener('pointercancel', () => (panelPressed = false), true);

/** What identifies a control across rebuilds: its target row and its text. */
function controlKey(el: Element): string {
  const row = el.closest<HTMLElement>('[data-target],[data-pair]');
  return `${el.tagName}|${row?.dataset.target ?? row?.dataset.pair ?? ''}|${el.tagName === 'SUMMARY' ? '' : el.textContent}`;
}
let lastPanelMs = 0;
let panelTimer: ReturnType<typeof setTimeout> | null = null;
/** Which breakdowns the operator has closed, by target, kept across refreshes. */
const closedTargets = new Set<string>();
/** Which split-fire pairs the operator has unfolded, kept across refreshes. */
const openSplitPairs = new Set<string>();

function renderSelection(force = false): void {
  const state = store.snapshot.state;
  const unitId = view.selection;
  rollPanel.follow(unitId);
  const ev = unitId ? state?.evaluation?.units[unitId] : undefined;
  const warnings = unitId ? unitWarningLines(state?.evaluation?.warnings, unitId) : [];
  // Commanders' orders and combined charges live beside the units' readings: a change there shows too.
  const warningsKey = unitWarningsKey(warnings) + (unitId ? JSON.stringify([state?.evaluation?.commanders, combinedChargesOf(state?.evaluation?.combinedCharges, unitId), state?.tableState.units.find((u) => u.id === unitId)?.status]) : '');
  if (!force && ev === renderedUnitEval && unitId === renderedUnitId && warningsKey === renderedUnitWarnings) return;
  const unitChanged = unitId !== renderedUnitId;
  const now = performance.now();
  // Under the pointer the panel holds still longer (and never between press and release), so a button
  // is not replaced while someone aims at it.
  const wait = panelPressed ? 300 : panelHovered ? Math.max(0, PANEL_HOVER_REFRESH_MS - (now - lastPanelMs)) : Math.max(0, PANEL_REFRESH_MS - (now - lastPanelMs));
  if (!force && !unitChanged && wait > 0) {
    panelTimer ??= setTimeout(() => {
      panelTimer = null;
      renderSelection();
    }, wait);
    return;
  }
  lastPanelMs = now;
  renderedUnitEval = ev;
  renderedUnitId = unitId;
  renderedUnitWarnings = warningsKey;
  if (!state || !unitId) {
    unitBox.replaceChildren(h('p', { className: 'hint' }, 'No unit selected. Click a stand on the map.'));
    statusBox.replaceChildren();
    delete statusBox.dataset.unit;
    return;
  }
  const unit = state.tableState.units.find((u) => u.id === unitId);
  if (!unit) return;
  const parts: Node[] = [h('h3', {}, unit.name), h('div', { className: 'hint' }, [unit.side, unit.arm, unit.quality, unit.weapon].map((w) => readableId(String(w))).join(' · '))];
  const words = statusWords(unit, ev?.morale);
  if (words.length) parts.push(h('div', { className: 'status-words' }, words.join(' · ')));
  const warningList = unitWarningsList(warnings);
  if (warningList) parts.push(warningList);
  if (!ev) {
    parts.push(h('p', { className: 'refusal' }, 'The rules have no evaluation for this unit.'));
  } else {
    const f0 = ev.formation;
    parts.push(h('div', {}, `Formation: ${f0.name ?? readableId(f0.formation)} `, h('span', { className: 'src' }, f0.source === 'status' ? 'set by the operator' : `from the stands' positions, ${(f0.confidence * 100).toFixed(0)}% fit`), f0.section ? h('span', { className: 'src' }, ` · ${f0.section}`) : null));
    if (ev.morale) parts.push(h('div', { className: 'morale' }, moraleText(ev.morale)));
    parts.push(
      ev.movement.ok
        ? h('div', {}, `Movement: ${ev.movement.allowanceIn}" `, h('span', { className: 'src' }, ev.movement.notes.join('; ')))
        : h('div', { className: 'refusal', title: ev.movement.reason }, `Cannot move: ${refusalText(ev.movement)}`),
    );
    if (ev.hastyWorks) {
      const hw = h('div', { className: 'hasty-works' }, `${hastyWorksText(ev.hastyWorks)} `, h('span', { className: 'src' }, ev.hastyWorks.source));
      hw.id = 'hasty-works';
      parts.push(hw);
    }
    parts.push(h('h3', {}, 'Fire'));
    const fireOk = ev.fire.filter((f): f is Extract<typeof f, { ok: true }> => f.ok);
    const fireNo = ev.fire.filter((f) => !f.ok);
    if (fireOk.length === 0) parts.push(h('div', { className: 'hint' }, 'No target it can fire at.'));
    for (const f of fireOk) {
      const b = f.breakdown;
      const roll = h('button', { type: 'button', title: `Roll ${b.dice} dice with the service's roller (logged)` }, `Roll ${b.dice}`);
      roll.addEventListener('click', () => void rollDice(b.dice, `fire: ${unit.name} → ${unitName(state, f.targetUnitId)}`, unit.id, b.hitOn));
      const dicePool = (b.kind ?? 'dice') === 'dice';
      const target = h('details', { className: 'fire-target', open: !closedTargets.has(f.targetUnitId) },
        h('summary', {},
          f.priority ? h('span', { className: 'priority', title: 'The rules say it must fire at this target' }, '★ must fire at ') : null,
          `${unitName(state, f.targetUnitId)} · `, h('span', { className: 'range' }, `${f.rangeIn.toFixed(1)}"`), ` · band ${f.band} · `,
          h('span', { className: 'dice' }, breakdownAmount(b)),
          oddsSpan(b),
          ' ', dicePool ? roll : null),
        breakdownTable(b));
      target.dataset.target = f.targetUnitId;
      target.addEventListener('toggle', () => (target.open ? closedTargets.delete(f.targetUnitId) : closedTargets.add(f.targetUnitId)));
      parts.push(target);
    }
    if (fireNo.length) parts.push(whyNotList('fire', fireNo, (id) => unitName(state, id), openWhyNot));
    if (ev.splitFire) {
      const rows = splitFireRows(ev.splitFire, (id) => unitName(state, id));
      parts.push(...splitFirePanel(rows, (row) => void rollDice(row.dice, `split fire: ${unit.name} → ${row.pairText}`, unit.id), openSplitPairs));
    }
    parts.push(h('h3', {}, 'Charge'));
    const chargeOk = ev.charge.filter((c): c is Extract<typeof c, { ok: true }> => c.ok);
    const chargeNo = ev.charge.filter((c) => !c.ok);
    if (chargeOk.length === 0) parts.push(h('div', { className: 'hint' }, 'No unit it can charge.'));
    for (const c of chargeOk) {
      parts.push(h('details', { className: 'charge-target' },
        h('summary', {}, `${unitName(state, c.targetUnitId)} · `, h('span', { className: 'range' }, `${c.distanceIn.toFixed(1)}"`), ' · attacker ', h('span', { className: 'dice' }, breakdownAmount(c.attacker)), oddsSpan(c.attacker), ' vs defender ', h('span', { className: 'dice' }, breakdownAmount(c.defender)), oddsSpan(c.defender),
          c.enemyFlanked ? ' · flanked' : '', c.disorderedBy.length ? ` · disordered by ${c.disorderedBy.join(', ')}` : ''),
        h('div', { className: 'hint' }, 'Attacker'), breakdownTable(c.attacker), h('div', { className: 'hint' }, 'Defender'), breakdownTable(c.defender)));
    }
    if (chargeNo.length) parts.push(whyNotList('charge', chargeNo, (id) => unitName(state, id), openWhyNot));
    const together = combinedChargesOf(state.evaluation?.combinedCharges, unit.id);
    if (together.length) parts.push(h('div', { className: 'hint' }, 'Charging together:'), ...combinedChargeLines(together, (id) => nameOfAny(state, id)));
    parts.push(h('h3', {}, 'Rally'));
    parts.push('ok' in ev.rally && ev.rally.ok === false ? h('div', { className: 'refusal', title: ev.rally.reason }, `Cannot rally: ${refusalText(ev.rally)}`) : breakdownTable(ev.rally as Exclude<typeof ev.rally, { ok: false }>));
    const cmd = ev.command;
    parts.push(h('h3', {}, 'Command'));
    parts.push(h('div', { className: 'command' }, commandText(cmd, (id) => nameOfAny(state, id))));
    // Its brigade's commander (and any attached or in range): orders per turn by quality, with the section.
    const itsCommanders = state.tableState.commanders.filter((c) => (unit.brigadeId !== undefined && c.brigadeId === unit.brigadeId) || c.id === cmd.commanderInRangeId || c.id === cmd.attachedCommanderId);
    parts.push(...commanderLines(state.evaluation?.commanders, itsCommanders, (id) => nameOfAny(state, id)));
  }
  // Rebuilt only when what it says changed: an unchanged panel keeps the pointer's hover and the keyboard's focus.
  const fresh = h('div', {}, ...parts);
  const sameUnit = unitBox.dataset.unit === unit.id;
  // Ranges change with every step a unit takes: they are patched in place, so a moving unit's panel keeps
  // its buttons; anything else that changed rebuilds it.
  const structure = (root: Element) => {
    const copy = root.cloneNode(true) as Element;
    for (const r of copy.querySelectorAll('.range')) r.textContent = '';
    return copy.textContent;
  };
  const freshRanges = [...fresh.querySelectorAll('.range')];
  const shownRanges = [...unitBox.querySelectorAll('.range')];
  if (!force && sameUnit && freshRanges.length === shownRanges.length && structure(fresh) === structure(unitBox)) {
    freshRanges.forEach((r, i) => {
      if (shownRanges[i]!.textContent !== r.textContent) shownRanges[i]!.textContent = r.textContent;
    });
  } else if (!sameUnit || fresh.textContent !== unitBox.textContent || force) {
    // Keyboard focus survives a rebuild: the same control in the new panel takes it back.
    const focused = document.activeElement && unitBox.contains(document.activeElement) ? controlKey(document.activeElement) : null;
    unitBox.replaceChildren(...fresh.childNodes);
    unitBox.dataset.unit = unit.id;
    if (focused) [...unitBox.querySelectorAll<HTMLElement>('button, summary, select, input')].find((el) => controlKey(el) === focused)?.focus();
  }
  // The inputs follow a status changed elsewhere (Undo, another operator), unless one of them has the focus.
  const statusChanged = JSON.stringify(unit.status ?? {}) !== renderedStatusKey && !statusBox.contains(document.activeElement);
  if (unitChanged || force || statusChanged || (state.evaluation?.rulesetId ?? null) !== statusRulesetId) renderStatusEditor(state, unit.id);
}

/** Which "N more out of range" groups the operator has unfolded (ui/whyNotList.ts), kept across refreshes. */
const openWhyNot = new Set<string>();

/** " ≈1.5 hits · 88% ≥1 (4+)" after a pool of dice whose breakdown gives a hit number; nothing otherwise. */
function oddsSpan(b: import('@muster/rules').DiceBreakdown): HTMLElement | null {
  return (b.kind ?? 'dice') === 'dice' && b.hitOn !== undefined ? h('span', { className: 'odds' }, ` ${poolOddsText(b.dice, b.hitOn)}`) : null;
}

/** A unit's or a commander's name for an id. */
function nameOfAny(state: LiveState, id: string): string {
  return state.tableState.units.find((u) => u.id === id)?.name ?? state.tableState.commanders.find((c) => c.id === id)?.name ?? id;
}

/** The status editor's answer line: one element, so an answer arriving after the editor was rebuilt still shows. */
const statusConfirm = h('div', { className: 'status-confirm', role: 'status' });
statusConfirm.id = 'status-confirm';
/** The status the editor's inputs show (they are rebuilt when it changes elsewhere, e.g. Undo). */
let renderedStatusKey = '';

function renderStatusEditor(state: LiveState, unitId: string): void {
  const unit = state.tableState.units.find((u) => u.id === unitId);
  if (!unit) return;
  const st: UnitStatus = unit.status ?? {};
  renderedStatusKey = JSON.stringify(st);
  const confirm = statusConfirm;
  if (statusBox.dataset.unit !== unitId) {
    confirm.textContent = '';
    confirm.classList.remove('error');
  }
  statusBox.dataset.unit = unitId;
  // Each change goes to the service at once (no separate Apply); the answer shows right here, and Undo
  // puts the previous status back.
  const send = async (patch: UnitStatusPatch, what: string) => {
    const before = store.snapshot.state?.tableState.units.find((u) => u.id === unitId)?.status ?? {};
    confirm.textContent = `Saving: ${what}…`;
    confirm.classList.remove('error');
    const reply = await connection.sendAction({ type: 'set-unit-status', unitId, status: patch });
    if (reply.type === 'error') {
      confirm.textContent = `Not saved: ${reply.message}`;
      confirm.classList.add('error');
      return;
    }
    const restore: Record<string, unknown> = {};
    for (const k of Object.keys(patch)) restore[k] = (before as Record<string, unknown>)[k] ?? null;
    pushUndo(`${what} on ${unit.name}`, { type: 'set-unit-status', unitId, status: restore });
    confirm.textContent = `✓ ${unit.name}: ${what}.`;
    say(`Status of ${unit.name} updated.`);
  };
  const hitInputs = unit.standIds.map((id, i) => {
    const sel = h('select', { title: `Hits on stand ${i + 1} (${id})` });
    for (const n of [0, 1, 2]) sel.append(h('option', { value: String(n), selected: (st.hitsByStand?.[id] ?? 0) === n }, String(n)));
    sel.dataset.stand = id;
    return sel;
  });
  for (const sel of hitInputs) {
    sel.addEventListener('change', () => {
      const hitsByStand: Record<string, number> = {};
      for (const x of hitInputs) if (Number(x.value) > 0) hitsByStand[x.dataset.stand!] = Number(x.value);
      const total = Object.values(hitsByStand).reduce((a, b) => a + b, 0);
      void send({ hitsByStand }, `${total} hit${total === 1 ? '' : 's'}`);
    });
  }
  const disordered = h('input', { type: 'checkbox', checked: st.disordered ?? false });
  disordered.dataset.status = 'disordered';
  disordered.addEventListener('change', () => void send({ disordered: disordered.checked }, disordered.checked ? 'disordered' : 'not disordered'));
  const prone = h('input', { type: 'checkbox', checked: st.prone ?? false });
  prone.dataset.status = 'prone';
  prone.addEventListener('change', () => void send({ prone: prone.checked }, prone.checked ? 'prone' : 'not prone'));
  const orders = h('input', { type: 'number', min: '0', max: '3', value: st.ordersLeft === undefined ? '' : String(st.ordersLeft), placeholder: '–', title: 'Orders left this turn (empty: not tracked)' });
  orders.addEventListener('change', () => void send({ ordersLeft: orders.value === '' ? null : Number(orders.value) }, orders.value === '' ? 'orders not tracked' : `${orders.value} orders left`));
  const rulesetBox = h('div');
  statusBox.replaceChildren(
    h('h3', {}, 'Status'),
    h('div', { className: 'hint' }, 'Hits per stand (drawn as a cross on the stand)'),
    h('div', { className: 'row' }, ...unit.standIds.map((_id, i) => h('label', { className: 'hit' }, h('span', { className: 'hint' }, `Stand ${i + 1} `), hitInputs[i]!))),
    h('div', { className: 'row' }, h('label', { title: 'Drawn as a dashed ring round its stands' }, disordered, ' disordered'), h('label', { title: 'Drawn as a bar on the back of its stands' }, prone, ' prone'), h('label', {}, 'orders ', orders)),
    rulesetBox,
    confirm,
  );
  // The rule set's own status fields, built from its declaration; a value that does not fit is refused here.
  statusRulesetId = state.evaluation?.rulesetId ?? null;
  if (statusRulesetId === null) return;
  const rulesetId = statusRulesetId;
  rulesetStatusFields(rulesetId).then(
    (specs) => {
      if (!rulesetBox.isConnected || statusRulesetId !== rulesetId) return;
      const editor = rulesetStatusEditor({
        specs,
        status: st.rulesetStatus,
        onChange: (spec, value) => {
          const now = store.snapshot.state?.tableState.units.find((u) => u.id === unitId)?.status?.rulesetStatus;
          void send({ rulesetStatus: withStatusValue(now, spec.id, value) }, statusChangeWords(spec, value));
        },
        onProblem: (why) => {
          confirm.textContent = `Not sent: ${why}`;
          confirm.classList.add('error');
        },
      });
      rulesetBox.replaceChildren(...(editor ? [h('div', { className: 'hint' }, 'Rule-set status'), editor] : []));
    },
    (err: unknown) => {
      rulesetBox.replaceChildren(h('div', { className: 'hint' }, `The rule set's status fields could not be loaded: ${err instanceof Error ? err.message : String(err)}`));
    },
  );
}
/** The rule set whose status fields the editor shows (the editor is rebuilt when the game's changes). */
let statusRulesetId: string | null = null;

// ---- tags ------------------------------------------------------------------------------------------------
const tagsBox = h('div');
tagsBox.id = 'tags';
let renderedRoster: unknown;
function renderTags(state: LiveState): void {
  if (state.roster === renderedRoster) return;
  renderedRoster = state.roster;
  // Stands without a tag first; a bound stand can still take a new tag (a replaced or damaged one).
  const tagOf = new Map(state.roster.bindings.map((b) => [b.standId, b.markerId]));
  const stands = [...state.tableState.stands].sort((a, b) => Number(tagOf.has(a.id)) - Number(tagOf.has(b.id)));
  if (state.roster.unknownMarkerIds.length === 0) {
    tagsBox.replaceChildren(h('div', { className: 'hint' }, `Roster “${state.roster.name}”: every tag on the table is known.`));
    return;
  }
  tagsBox.replaceChildren(
    ...state.roster.unknownMarkerIds.map((markerId) => {
      const sel = h('select', { title: `Stand for tag ${markerId}` });
      for (const s of stands) {
        const tag = tagOf.get(s.id);
        sel.append(h('option', { value: s.id }, `${s.id} (${unitName(state, s.unitId)})${tag === undefined ? '' : ` — now tag ${tag}`}`));
      }
      const go = h('button', { type: 'button' }, 'Assign');
      go.addEventListener('click', () => void act({ type: 'assign-tag', markerId, standId: sel.value }, `Tag ${markerId} → ${sel.value}.`));
      return h('div', { className: 'row' }, `Tag ${markerId} →`, sel, go);
    }),
  );
}

// ---- cards, dice, log ------------------------------------------------------------------------------------
const cardOut = h('div');
cardOut.id = 'card';
const diceOut = h('div', { className: 'faces' });
diceOut.id = 'dice';
const diceCount = h('input', { type: 'number', min: '1', max: '100', value: '4' });
const diceReason = h('input', { type: 'text', placeholder: 'reason', style: 'width: 10em' });
const drawCard = h('button', { type: 'button', title: 'Draw the next action card (C)' }, 'Draw card');
const rollButton = h('button', { type: 'button', title: 'Roll this many dice with the service\'s seeded roller (R); logged' }, 'Roll');
const turnOut = h('span', { className: 'dice' });
turnOut.id = 'turn';
const turnDown = h('button', { type: 'button', title: 'Previous turn' }, '−');
const turnUp = h('button', { type: 'button', title: 'Next turn' }, '+');
const setTurn = (delta: number) => {
  const turn = (store.snapshot.state?.turn ?? 1) + delta;
  if (turn >= 1) void act({ type: 'set-turn', turn }, `Turn ${turn}.`);
};
turnDown.addEventListener('click', () => setTurn(-1));
turnUp.addEventListener('click', () => setTurn(1));
const warningsBox = h('ul', { className: 'hint warnings' });
warningsBox.id = 'warnings';
const logList = h('ol', { className: 'log' });
logList.id = 'log';

drawCard.addEventListener('click', async () => {
  const reply = await connection.sendAction({ type: 'draw-card' });
  if (reply.type === 'error') return say(`draw-card refused: ${reply.message}`, true);
  if (reply.result && 'draw' in reply.result) {
    const d = reply.result.draw;
    cardOut.textContent = `${cardText(d.card)} (${d.remaining} left${d.turnEnded ? ', turn ends' : ''})`;
  }
});
rollButton.addEventListener('click', () => void rollDice(Number(diceCount.value), diceReason.value || undefined));

async function rollDice(dice: number, reason?: string, unitId?: string, hitOn?: number): Promise<void> {
  const reply = await connection.sendAction({ type: 'roll-dice', dice, ...(reason ? { reason } : {}), ...(unitId ? { unitId } : {}), ...(hitOn !== undefined ? { hitOn } : {}) });
  if (reply.type === 'error') return say(`Dice not rolled: ${reply.message}`, true);
  if (reply.result && 'roll' in reply.result) {
    const r = reply.result.roll;
    // Hits stand out; the same roll also shows on the map's strip, in sight whatever the panel's scroll.
    diceOut.replaceChildren(
      ...r.faces.map((f) => h('span', { className: f >= r.hitOn ? 'die hit' : 'die', title: f >= r.hitOn ? 'hit' : 'miss' }, GLYPHS[f - 1] ?? String(f))),
      h('span', { className: 'roll-sum' }, `  → ${r.hits} hit${r.hits === 1 ? '' : 's'} (${r.hitOn}+)`),
    );
  }
}
const GLYPHS = ['⚀', '⚁', '⚂', '⚃', '⚄', '⚅'];

function logText(e: GameLogEntry): string {
  return logEntryText(e, store.snapshot.state);
}
let renderedLog: unknown;
function renderLog(): void {
  const log = store.snapshot.log;
  if (log === renderedLog) return;
  renderedLog = log;
  logList.replaceChildren(...log.slice(-30).map((e) => h('li', {}, `T${e.turn} · ${logText(e)}`)));
  logList.scrollTop = logList.scrollHeight;
}

/** Every commander's orders per turn and every combined charge, rebuilt only when they change. */
const commandersBox = h('div');
commandersBox.id = 'commanders';
let renderedTableWide = '';
function renderTableWide(state: LiveState): void {
  const key = JSON.stringify([state.evaluation?.commanders, state.evaluation?.combinedCharges, state.tableState.commanders.map((c) => c.name)]);
  if (key === renderedTableWide) return;
  renderedTableWide = key;
  commandersBox.replaceChildren(...tableWideSection(state.evaluation, state.tableState.commanders, (id) => nameOfAny(state, id)));
}

panel.append(
  h('section', {}, h('h2', {}, 'Tools'), h('div', { className: 'row' }, toolRow, undoEdit, helpButton), toolHint, measureOut, drawPanel, message),
  h('section', {}, h('h2', {}, 'Unit'), unitBox, statusBox),
  rollPanel.element,
  h('section', {}, h('h2', {}, 'Commanders'), commandersBox),
  rulesetChooser(store, connection),
  h('section', {}, h('h2', {}, 'Game'), h('div', { className: 'row' }, 'Turn ', turnOut, turnDown, turnUp), h('div', { className: 'row' }, drawCard, cardOut), h('div', { className: 'row' }, diceCount, diceReason, rollButton), diceOut, logList),
  h('section', {}, h('h2', {}, 'Unknown tags'), tagsBox),
  h('section', {}, h('h2', {}, 'Warnings'), warningsBox),
);

let renderedWarnings = '';
function renderWarnings(state: LiveState): void {
  // The unit's name once, at the front, unless the message already starts with it.
  const lines = [
    ...(state.evaluation?.warnings.map((w) => {
      const name = w.unitId ? unitName(state, w.unitId) : '';
      const text = name && !w.message.startsWith(name) ? `${name}: ${w.message}` : w.message;
      return w.parameterId ? `${text} (rule-set parameter “${readableId(w.parameterId)}” to set at start)` : text;
    }) ?? []),
    ...state.health.warnings,
  ];
  if (state.evaluation === null) lines.unshift('The rules could not run on this state.');
  const key = lines.join('\n');
  if (key === renderedWarnings) return;
  renderedWarnings = key;
  warningsBox.replaceChildren(...(lines.length ? lines.map((l) => h('li', {}, l)) : [h('li', {}, 'None.')]));
}
setMode('select');

const SHORTCUTS: { key: string; label: string; run: () => void }[] = [
  { key: 's', label: 'Select a unit', run: () => setMode('select') },
  { key: 'm', label: 'Measure (drag for a live reading)', run: () => setMode('measure') },
  { key: 'd', label: 'Draw terrain', run: () => setMode('draw') },
  { key: 'f', label: 'Fit the table to the view', run: () => view.resetZoom() },
  { key: 'c', label: 'Draw an action card', run: () => drawCard.click() },
  { key: 'r', label: 'Roll the dice in the Game box', run: () => rollButton.click() },
  { key: '+', label: 'Next turn', run: () => setTurn(1) },
  { key: '-', label: 'Previous turn', run: () => setTurn(-1) },
  { key: '?', label: 'Show or hide this list', run: () => (helpBox.hidden = !helpBox.hidden) },
];
helpBox.append(
  h('h3', {}, 'Keyboard'),
  h('table', {}, ...[...SHORTCUTS.map((s) => [s.key, s.label]), ['Ctrl+Z', 'Undo the last terrain or status edit, or an applied outcome'], ['Esc', 'Drop the measurement or drawing, then the selection']].map(([k, l]) => h('tr', {}, h('td', {}, h('kbd', {}, k!)), h('td', {}, l!)))),
);

// Keyboard: Escape steps back (draft or measurement first, then the selection); letters pick tools.
window.addEventListener('keydown', (ev) => {
  const typing = ev.target instanceof HTMLInputElement || ev.target instanceof HTMLSelectElement || ev.target instanceof HTMLTextAreaElement;
  if (ev.key === 'Escape') {
    if (ev.target instanceof HTMLInputElement && ev.target.type === 'text') return;
    if (!helpBox.hidden) helpBox.hidden = true;
    else if (draft.length > 0 || measureIds.length > 0 || measureLine) {
      draft = [];
      measureIds = [];
      measureLine = null;
      drawDraft();
      drawMeasure();
    } else if (view.selection !== null) select(null);
    return;
  }
  if ((ev.ctrlKey || ev.metaKey) && ev.key.toLowerCase() === 'z' && !typing) {
    ev.preventDefault();
    void undoLast();
    return;
  }
  if (typing || ev.ctrlKey || ev.metaKey || ev.altKey) return;
  const action = SHORTCUTS.find((s) => s.key === ev.key);
  if (action) {
    ev.preventDefault();
    action.run();
  }
});

/** " · rules 0.8 ms" (the median time the rules took per state) once the service reports it. */
function rulesTimeSuffix(state: LiveState): string {
  const ms = state.health.rulesMs;
  return ms === undefined ? '' : ` · rules ${ms < 10 ? ms.toFixed(1) : ms.toFixed(0)} ms`;
}

/** " · rules lag N frames (x s)" when the evaluation drawn is more than a couple of frames old. */
function lagSuffix(state: LiveState): string {
  const lag = rulesLagText(state);
  return lag ? ` · ${lag}` : '';
}

store.subscribe((s) => {
  const state = s.state;
  status.textContent = state
    ? `Turn ${state.turn} · ${ageText(state.captureTimeMs)} · ${state.health.frameRateHz.toFixed(0)} fps · ${state.health.trackedStands} stands tracked${state.health.unknownTags ? ` · ${state.health.unknownTags} unknown tags` : ''}${rulesTimeSuffix(state)}${lagSuffix(state)}`
    : s.connection;
  if (!state) return;
  renderSelection();
  renderTags(state);
  renderTerrainList(state);
  renderLog();
  renderWarnings(state);
  renderTableWide(state);
  turnOut.textContent = String(state.turn);
  // A tape follows the stands it joins, and its answers follow the rules.
  if (measureIds.length === 2 || (measureLine && state.evaluation !== tapeEvaluation)) drawMeasure();
});
renderSelection(true);
