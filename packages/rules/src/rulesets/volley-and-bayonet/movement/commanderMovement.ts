/**
 * The superior commanders' own movement (Movement, p. 2: "Commanders 24"): a brigade, wing or army commander's
 * stand moves as a command stand (Terrain Effects, p. 3: "foot troops and commanders"; skirmisher and command
 * stands unaffected by hills), stopped by enemy bases. Drawn as its reach, like a unit's stands.
 */
import type { Shape } from '../../../engine/shapes.ts';
import type { Unit } from '../../../model/tableState.ts';
import { emptyBox } from '../../../geometry/polygon.ts';
import type { VbCommander, VbContext, VbUnit } from '../context.ts';
import { MOVEMENT_RATES_IN } from '../tables/movementRates.ts';
import { standReach } from './movement.ts';
import type { VbTerrain } from './terrainScene.ts';

/**
 * The commander as the walks read a mover: his side, no troop type, never poorly trained nor in road march.
 * (A commander is no unit: only the fields a walk reads are his; the rest are a unit's neutral values.)
 */
function commanderMover(c: VbCommander): VbUnit {
  const unit = { id: c.commander.id, name: c.commander.name, side: c.commander.side, arm: 'infantry', quality: 'veteran', weapon: 'none', standIds: [] } as unknown as Unit;
  return {
    unit,
    category: 'infantry',
    abilities: new Set(),
    stationary: false,
    roadMarch: false,
    skirmishOrder: false,
    disordered: false,
    permanentlyDisordered: false,
    routed: false,
    poorlyTrained: false,
    bridgeDisorders: false,
    spLost: 0,
    hitsThisPhase: 0,
    stands: c.stand ? [c.stand] : [],
    combatStands: [],
    combatBox: emptyBox(),
    unitCommanders: [],
    spacers: [],
  };
}

/** The reach of a superior commander's stand (none without a stand on the table). */
export function commanderMovementShapes(ctx: VbContext, terrain: VbTerrain, c: VbCommander): Shape[] {
  const s = c.stand;
  if (!s) return [];
  const rateIn = MOVEMENT_RATES_IN.commanders.rateIn;
  const pool = ctx.enemyStandsNear(c.commander.side, s.box, rateIn + s.stand.depthIn / 2 + 1e-6);
  const reach = standReach(ctx, terrain, commanderMover(c), s, rateIn, rateIn, pool);
  return [{ kind: 'polygon', id: `movement/reach/${s.stand.id}`, layer: 'movement', style: 'reach', side: c.commander.side, vertices: reach }];
}
