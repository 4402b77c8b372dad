/**
 * An outcome's forced moves on the table (retreat, rout, fall back, advance ...): each path as a dashed
 * orange line with an arrow at its end, drawn from the shown outcome (ui/shownOutcome.ts) until the unit's
 * stands have been moved or the operator clears the outcome. The projector draws it on the cloth; the map
 * and the operator page draw the same.
 */
import * as THREE from 'three';
import type { LiveStore } from '../state/liveStore.ts';
import { dashPolyline } from '../geometry/dashedLine.ts';
import { arrowHead, polylineStrip } from '../geometry/polylineStrip.ts';
import { pendingForcedMoves, shownOutcome, type PendingMove } from '../ui/shownOutcome.ts';
import { addIfAny, trianglesMesh } from '../views/meshFactory.ts';
import { RENDER_ORDER } from '../views/renderOrder.ts';
import type { LiveTableView } from '../views/liveTableView.ts';

/** Orange: apart from the rules' reach colours, and readable on a green or brown cloth. */
const FORCED_MOVE_COLOR = 0xff8c1a;

export function forcedMoveGroup(moves: readonly PendingMove[], widthIn: number): THREE.Group | null {
  if (moves.length === 0) return null;
  const group = new THREE.Group();
  for (const { move } of moves) {
    const flat: number[] = [];
    for (const dash of dashPolyline(move.path, widthIn * 4, widthIn * 2.5)) flat.push(...polylineStrip(dash, widthIn));
    flat.push(...arrowHead(move.path, widthIn * 6));
    addIfAny(group, trianglesMesh(flat, { color: FORCED_MOVE_COLOR, opacity: 1 }, RENDER_ORDER.measure));
  }
  return group;
}

/** Keeps `view`'s 'outcome' overlay on the forced moves still to make; redrawn only when they change. */
export function followForcedMoves(view: Pick<LiveTableView, 'setOverlay'>, store: LiveStore, widthIn: number): void {
  let drawnKey = '';
  const update = (): void => {
    const s = store.snapshot;
    const shown = shownOutcome(s.log);
    const moves = pendingForcedMoves(shown, s.state?.tableState);
    const key = moves.length === 0 ? '' : `${shown!.entry.index}|${moves.map((m) => m.unitId).join(',')}`;
    if (key === drawnKey) return;
    drawnKey = key;
    view.setOverlay('outcome', forcedMoveGroup(moves, widthIn));
  };
  store.subscribe(update);
  update();
}
