/**
 * The operator's view (`/operator.html?token=...`): the map plus a panel. Click a stand to select its
 * unit: its reach, arcs and charge show on the map and the panel lists fire targets with dice and every
 * modifier with its rulebook source. Tools: measure stand to stand (edge to edge, tolerance stated),
 * draw terrain, set unit status, assign unknown tags, draw action cards and roll dice (service side,
 * seeded, logged). Every change is an operator message; the panel shows the server's answer.
 */
import * as THREE from 'three';
import type { GameLogEntry, LiveState, OperatorMessage } from '@muster/protocol';
import type { AreaTerrainKind, LinearTerrainKind, PointIn, Stand, Terrain, UnitEvaluation, UnitStatus } from '@muster/rules';
import { edgeDistance } from '../geometry/edgeDistance.ts';
import { polylineStrip } from '../geometry/polylineStrip.ts';
import { standFootprint } from '../geometry/standFootprint.ts';
import { measureTolerance } from '../state/measureTolerance.ts';
import { moveTerrainVertex, nearestTerrainVertex, piecePoints } from '../terrain/terrainVertex.ts';
import { breakdownTable, facesText, refusalText } from '../ui/formatBreakdown.ts';
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
    say(`${action.type} refused: ${reply.message}`, true);
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
let draft: PointIn[] = [];

const view = fullTableView({
  view: 'operator',
  container: stage,
  store,
  onTableClick: (at, stand) => onTableClick(at, stand),
  onDragStart: (at) => startVertexDrag(at),
});
const fitButton = h('button', { type: 'button' }, 'Fit');
fitButton.addEventListener('click', () => view.resetZoom());
topbar.append(layerMenu(view), cameraBackdropControl(view, store), fitButton);

// ---- tools -----------------------------------------------------------------------------------------------
const modeButtons = new Map<Mode, HTMLButtonElement>();
const toolHint = h('div', { className: 'hint' });
function setMode(next: Mode): void {
  mode = next;
  for (const [m, b] of modeButtons) b.classList.toggle('active', m === mode);
  measureIds = [];
  draft = [];
  drawMeasure();
  drawDraft();
  toolHint.textContent =
    mode === 'select' ? 'Click a stand to select its unit; click empty table to clear.'
    : mode === 'measure' ? 'Click two stands: edge-to-edge distance.'
    : 'Click points on the map, then Finish. Drag a terrain corner to move it.';
  drawPanel.hidden = mode !== 'draw';
}
const toolRow = h('div', { className: 'row' });
for (const [m, label] of [['select', 'Select'], ['measure', 'Measure'], ['draw', 'Draw terrain']] as const) {
  const b = h('button', { type: 'button' }, label);
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

function newId(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}`;
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
  let terrain: Terrain;
  if (group === 'area') terrain = { ...t, areas: [...t.areas, { id: newId(kind!), kind: kind as AreaTerrainKind, vertices: pts }] };
  else if (group === 'linear') terrain = { ...t, linear: [...t.linear, { id: newId(kind!), kind: kind as LinearTerrainKind, points: pts }] };
  else if (group === 'road') terrain = { ...t, roads: [...t.roads, { id: newId('road'), points: pts }] };
  else terrain = { ...t, elevations: [...t.elevations, { id: newId('hill'), level: Number(kind), vertices: pts }] };
  if (await act({ type: 'set-terrain', terrain }, `Terrain saved (${kindSelect.selectedOptions[0]?.textContent}).`)) {
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
      const del = h('button', { type: 'button', title: `Remove ${id}` }, '✕');
      del.addEventListener('click', () => void act({ type: 'set-terrain', terrain: without() }, `Removed ${id}.`));
      return h('li', {}, `${kind} (${id}) `, del);
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
    measureIds = measureIds.length >= 2 ? [stand.id] : [...measureIds, stand.id];
    drawMeasure();
    return;
  }
  const unitId = stand?.unitId ?? null;
  const isUnit = unitId !== null && (store.snapshot.state?.tableState.units.some((u) => u.id === unitId) ?? false);
  view.selectUnit(isUnit ? unitId : null);
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
    void act({ type: 'set-terrain', terrain: edited }, `Moved a corner of ${ref.pieceId}.`).then(() => drawDraft());
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

const measureOut = h('div', { className: 'hint' });
measureOut.id = 'measure-result';
function drawMeasure(): void {
  const state = store.snapshot.state;
  const stands = measureIds.map((id) => state?.tableState.stands.find((s) => s.id === id)).filter((s): s is Stand => s !== undefined);
  if (stands.length < 2 || !state) {
    view.setOverlay('measure', null);
    view.setExtraLabels([]);
    measureOut.textContent = stands.length === 1 ? `From ${stands[0]!.id}: click a second stand.` : '';
    return;
  }
  const [a, b] = stands as [Stand, Stand];
  const d = edgeDistance(standFootprint(a).corners, standFootprint(b).corners);
  const tol = measureTolerance(state.profile);
  const text = `${d.distanceIn.toFixed(2)}" ${tol.text}`;
  const group = new THREE.Group();
  addIfAny(group, trianglesMesh(polylineStrip([d.fromPoint, d.toPoint], 0.12), { color: 0xffffff, opacity: 1 }, RENDER_ORDER.measure));
  view.setOverlay('measure', group);
  const mid = { xIn: (d.fromPoint.xIn + d.toPoint.xIn) / 2, yIn: (d.fromPoint.yIn + d.toPoint.yIn) / 2 };
  view.setExtraLabels([{ key: 'measure', at: mid, text: `${d.distanceIn.toFixed(2)}"`, className: 'measure-label' }]);
  measureOut.textContent = `${a.id} → ${b.id}: ${text}, edge to edge`;
}

// ---- selected unit ---------------------------------------------------------------------------------------
const unitBox = h('div');
unitBox.id = 'unit-panel';
const statusBox = h('div');
let renderedUnitEval: UnitEvaluation | undefined;
let renderedUnitId: string | null = null;
let renderedUnitWarnings = '';

function unitName(state: LiveState, id: string): string {
  return state.tableState.units.find((u) => u.id === id)?.name ?? id;
}

/** While a selected unit is moving its numbers change every frame; the panel follows at most this often, so its buttons stay clickable and its open/closed breakdowns stay put. */
const PANEL_REFRESH_MS = 700;
let lastPanelMs = 0;
let panelTimer: ReturnType<typeof setTimeout> | null = null;
/** Which breakdowns the operator has closed, by target, kept across refreshes. */
const closedTargets = new Set<string>();
/** Which split-fire pairs the operator has unfolded, kept across refreshes. */
const openSplitPairs = new Set<string>();

function renderSelection(force = false): void {
  const state = store.snapshot.state;
  const unitId = view.selection;
  const ev = unitId ? state?.evaluation?.units[unitId] : undefined;
  const warnings = unitId ? unitWarningLines(state?.evaluation?.warnings, unitId) : [];
  const warningsKey = unitWarningsKey(warnings);
  if (!force && ev === renderedUnitEval && unitId === renderedUnitId && warningsKey === renderedUnitWarnings) return;
  const unitChanged = unitId !== renderedUnitId;
  const now = performance.now();
  if (!force && !unitChanged && now - lastPanelMs < PANEL_REFRESH_MS) {
    panelTimer ??= setTimeout(() => {
      panelTimer = null;
      renderSelection();
    }, PANEL_REFRESH_MS - (now - lastPanelMs));
    return;
  }
  lastPanelMs = now;
  renderedUnitEval = ev;
  renderedUnitId = unitId;
  renderedUnitWarnings = warningsKey;
  if (!state || !unitId) {
    unitBox.replaceChildren(h('p', { className: 'hint' }, 'No unit selected. Click a stand on the map.'));
    statusBox.replaceChildren();
    return;
  }
  const unit = state.tableState.units.find((u) => u.id === unitId);
  if (!unit) return;
  const parts: Node[] = [h('h3', {}, unit.name), h('div', { className: 'hint' }, `${unit.side} · ${unit.arm} · ${unit.quality} · ${unit.weapon}`)];
  const warningList = unitWarningsList(warnings);
  if (warningList) parts.push(warningList);
  if (!ev) {
    parts.push(h('p', { className: 'refusal' }, 'The rules have no evaluation for this unit.'));
  } else {
    parts.push(h('div', {}, `Formation: ${ev.formation.formation} (${ev.formation.source}, ${(ev.formation.confidence * 100).toFixed(0)}%)`));
    parts.push(
      ev.movement.ok
        ? h('div', {}, `Movement: ${ev.movement.allowanceIn}" `, h('span', { className: 'src' }, ev.movement.notes.join('; ')))
        : h('div', { className: 'refusal' }, `Movement: ${refusalText(ev.movement)}`),
    );
    if (ev.hastyWorks) {
      const hw = h('div', { className: 'hasty-works' }, `${hastyWorksText(ev.hastyWorks)} `, h('span', { className: 'src' }, ev.hastyWorks.source));
      hw.id = 'hasty-works';
      parts.push(hw);
    }
    parts.push(h('h3', {}, 'Fire'));
    if (ev.fire.length === 0) parts.push(h('div', { className: 'hint' }, 'No targets.'));
    for (const f of ev.fire) {
      if (!f.ok) {
        parts.push(h('div', { className: 'refusal' }, `${unitName(state, f.targetUnitId)}: ${refusalText(f)}`));
        continue;
      }
      const roll = h('button', { type: 'button' }, `Roll ${f.breakdown.dice}`);
      roll.addEventListener('click', () => void rollDice(f.breakdown.dice, `fire: ${unit.name} → ${unitName(state, f.targetUnitId)}`, unit.id));
      const target = h('details', { className: 'fire-target', open: !closedTargets.has(f.targetUnitId) },
        h('summary', {},
          f.priority ? h('span', { className: 'priority', title: 'Must fire at this target' }, '★ ') : null,
          `${unitName(state, f.targetUnitId)} · ${f.rangeIn.toFixed(1)}" · band ${f.band} · `,
          h('span', { className: 'dice' }, `${f.breakdown.dice} dice`), ' ', roll),
        breakdownTable(f.breakdown));
      target.dataset.target = f.targetUnitId;
      target.addEventListener('toggle', () => (target.open ? closedTargets.delete(f.targetUnitId) : closedTargets.add(f.targetUnitId)));
      parts.push(target);
    }
    if (ev.splitFire) {
      const rows = splitFireRows(ev.splitFire, (id) => unitName(state, id));
      parts.push(...splitFirePanel(rows, (row) => void rollDice(row.dice, `split fire: ${unit.name} → ${row.pairText}`, unit.id), openSplitPairs));
    }
    parts.push(h('h3', {}, 'Charge'));
    if (ev.charge.length === 0) parts.push(h('div', { className: 'hint' }, 'No charge targets.'));
    for (const c of ev.charge) {
      if (!c.ok) {
        parts.push(h('div', { className: 'refusal' }, `${unitName(state, c.targetUnitId)}: ${refusalText(c)}`));
        continue;
      }
      parts.push(h('details', { className: 'charge-target' },
        h('summary', {}, `${unitName(state, c.targetUnitId)} · ${c.distanceIn.toFixed(1)}" · attacker `, h('span', { className: 'dice' }, String(c.attacker.dice)), ' vs defender ', h('span', { className: 'dice' }, String(c.defender.dice)),
          c.enemyFlanked ? ' · flanked' : '', c.disorderedBy.length ? ` · disordered by ${c.disorderedBy.join(', ')}` : ''),
        h('div', { className: 'hint' }, 'Attacker'), breakdownTable(c.attacker), h('div', { className: 'hint' }, 'Defender'), breakdownTable(c.defender)));
    }
    parts.push(h('h3', {}, 'Rally'));
    parts.push('ok' in ev.rally && ev.rally.ok === false ? h('div', { className: 'refusal' }, refusalText(ev.rally)) : breakdownTable(ev.rally as Exclude<typeof ev.rally, { ok: false }>));
    const cmd = ev.command;
    parts.push(h('h3', {}, 'Command'));
    parts.push(h('div', { className: 'command' }, commandText(cmd, (id) => unitName(state, id))));
  }
  unitBox.replaceChildren(...parts);
  if (unitChanged || force) renderStatusEditor(state, unit.id);
}

function renderStatusEditor(state: LiveState, unitId: string): void {
  const unit = state.tableState.units.find((u) => u.id === unitId);
  if (!unit) return;
  const st: UnitStatus = unit.status ?? {};
  const hitInputs = unit.standIds.map((id) => {
    const sel = h('select', { title: `Hits on ${id}` });
    for (const n of [0, 1, 2]) sel.append(h('option', { value: String(n), selected: (st.hitsByStand?.[id] ?? 0) === n }, String(n)));
    sel.dataset.stand = id;
    return sel;
  });
  const disordered = h('input', { type: 'checkbox', checked: st.disordered ?? false });
  const prone = h('input', { type: 'checkbox', checked: st.prone ?? false });
  const orders = h('input', { type: 'number', min: '0', max: '3', value: st.ordersLeft === undefined ? '' : String(st.ordersLeft), placeholder: '–' });
  const apply = h('button', { type: 'button' }, 'Apply status');
  apply.id = 'apply-status';
  apply.addEventListener('click', () => {
    const hitsByStand: Record<string, number> = {};
    for (const sel of hitInputs) if (Number(sel.value) > 0) hitsByStand[sel.dataset.stand!] = Number(sel.value);
    void act(
      {
        type: 'set-unit-status',
        unitId,
        status: { hitsByStand, disordered: disordered.checked, prone: prone.checked, ordersLeft: orders.value === '' ? null : Number(orders.value) },
      },
      `Status of ${unit.name} updated.`,
    );
  });
  statusBox.replaceChildren(
    h('h3', {}, 'Status'),
    h('div', { className: 'hint' }, 'Hits per stand'),
    h('div', { className: 'row' }, ...unit.standIds.map((id, i) => h('label', { className: 'hit' }, h('span', { className: 'hint' }, `${id} `), hitInputs[i]!))),
    h('div', { className: 'row' }, h('label', {}, disordered, ' disordered'), h('label', {}, prone, ' prone'), h('label', {}, 'orders ', orders)),
    h('div', { className: 'row' }, apply),
  );
}

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
const drawCard = h('button', { type: 'button' }, 'Draw card');
const rollButton = h('button', { type: 'button' }, 'Roll');
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
    cardOut.textContent = `${d.card.kind}${d.card.first ? ` — ${d.card.first} first` : ''} (${d.remaining} left${d.turnEnded ? ', turn ends' : ''})`;
  }
});
rollButton.addEventListener('click', () => void rollDice(Number(diceCount.value), diceReason.value || undefined));

async function rollDice(dice: number, reason?: string, unitId?: string): Promise<void> {
  const reply = await connection.sendAction({ type: 'roll-dice', dice, ...(reason ? { reason } : {}), ...(unitId ? { unitId } : {}) });
  if (reply.type === 'error') return say(`roll-dice refused: ${reply.message}`, true);
  if (reply.result && 'roll' in reply.result) {
    const r = reply.result.roll;
    diceOut.textContent = `${facesText(r.faces)}  → ${r.hits} hit${r.hits === 1 ? '' : 's'} (${r.hitOn}+)`;
  }
}

function logText(e: GameLogEntry): string {
  switch (e.kind) {
    case 'card': return `Card: ${e.draw.card.kind}${e.draw.card.first ? ` (${e.draw.card.first} first)` : ''}`;
    case 'dice': return `Dice${e.roll.reason ? ` (${e.roll.reason})` : ''}: ${e.roll.faces.join(' ')} → ${e.roll.hits} hits`;
    case 'unit-status': return `Status: ${e.unitId}`;
    case 'terrain': return 'Terrain edited';
    case 'assign-tag': return `Tag ${e.markerId} → ${e.standId ?? 'unassigned'}`;
    case 'turn': return `Turn ${e.turn}`;
    case 'note': return e.text;
    case 'pose': return `Moved ${e.standId}`;
    case 'stand-removed': return `Removed ${e.standId}`;
  }
}
let renderedLog: unknown;
function renderLog(): void {
  const log = store.snapshot.log;
  if (log === renderedLog) return;
  renderedLog = log;
  logList.replaceChildren(...log.slice(-30).map((e) => h('li', {}, `T${e.turn} · ${logText(e)}`)));
  logList.scrollTop = logList.scrollHeight;
}

panel.append(
  h('section', {}, h('h2', {}, 'Tools'), toolRow, toolHint, measureOut, drawPanel, message),
  h('section', {}, h('h2', {}, 'Unit'), unitBox, statusBox),
  h('section', {}, h('h2', {}, 'Game'), h('div', { className: 'row' }, 'Turn ', turnOut, turnDown, turnUp), h('div', { className: 'row' }, drawCard, cardOut), h('div', { className: 'row' }, diceCount, diceReason, rollButton), diceOut, logList),
  h('section', {}, h('h2', {}, 'Unknown tags'), tagsBox),
  h('section', {}, h('h2', {}, 'Warnings'), warningsBox),
);

let renderedWarnings = '';
function renderWarnings(state: LiveState): void {
  const lines = [...(state.evaluation?.warnings.map((w) => `${w.unitId ? `${unitName(state, w.unitId)}: ` : ''}${w.message}`) ?? []), ...state.health.warnings];
  if (state.evaluation === null) lines.unshift('The rules could not run on this state.');
  const key = lines.join('\n');
  if (key === renderedWarnings) return;
  renderedWarnings = key;
  warningsBox.replaceChildren(...(lines.length ? lines.map((l) => h('li', {}, l)) : [h('li', {}, 'None.')]));
}
setMode('select');

// Escape steps back: drop the draft or measurement first, then the selection.
window.addEventListener('keydown', (ev) => {
  if (ev.key !== 'Escape' || (ev.target instanceof HTMLInputElement && ev.target.type === 'text')) return;
  if (draft.length > 0 || measureIds.length > 0) {
    draft = [];
    measureIds = [];
    drawDraft();
    drawMeasure();
  } else if (view.selection !== null) {
    view.selectUnit(null);
    renderSelection(true);
  }
});

/** " · rules lag N frames (x s)" when the evaluation drawn is more than a couple of frames old. */
function lagSuffix(state: LiveState): string {
  const lag = rulesLagText(state);
  return lag ? ` · ${lag}` : '';
}

store.subscribe((s) => {
  const state = s.state;
  status.textContent = state
    ? `Turn ${state.turn} · ${ageText(state.captureTimeMs)} · ${state.health.frameRateHz.toFixed(0)} fps · ${state.health.trackedStands} stands tracked${state.health.unknownTags ? ` · ${state.health.unknownTags} unknown tags` : ''}${lagSuffix(state)}`
    : s.connection;
  if (!state) return;
  renderSelection();
  renderTags(state);
  renderTerrainList(state);
  renderLog();
  renderWarnings(state);
  turnOut.textContent = String(state.turn);
  if (measureIds.length === 2) drawMeasure();
});
renderSelection(true);
