/**
 * The pieces of a Volley & Bayonet evaluation as queries (engine/incremental/), each written as if it
 * evaluated from scratch and reading the table only through the reader (`VbContext.t`) and other pieces:
 * - per unit: its command, its movement, its fire (with one piece per firing unit and enemy unit in reach,
 *   `vb/fire-pair`), its charges, its guns' danger zones (the unit as read is in context.ts, the unit's
 *   evaluation put together and the root in evaluate.ts);
 * - per brigade: its exhaustion; per unit, whether its brigade is exhausted;
 * - for the table: the terrain as movement reads it, the fire parameters, every brigade's morale, the
 *   superior commanders' zones.
 * Pieces near other units read them by box (`VbContext.standsIn`, `targetsNear`), so a move recomputes
 * only the pieces whose boxes it meets; plain answers (`equal: 'plain'`) spare their readers when a piece
 * run again gives the same answer.
 */
import { query } from '../../engine/incremental/query.ts';
import type { TargetUnits, VbContext } from './context.ts';
import { commanderZones, unitCommand } from './command.ts';
import { chargeAtUnit, chargeSetup, chargeTargets, evaluateCharge, type ChargeAtUnit } from './charge.ts';
import { evaluateFire, fireAtUnit, fireSettings, fireSightPool, firersOf, firersReach, type FireAtUnit } from './fire/fire.ts';
import { brigadeMorale, unitDangerZones, type BrigadeMorale } from './morale.ts';
import { evaluateMovement, movementEnemies, standReach } from './movement/movement.ts';
import { binsCutByEnemy } from './movement/outOfCommand.ts';
import { buildTerrain } from './movement/terrainScene.ts';
import { commanderMovementShapes } from './movement/commanderMovement.ts';
import { blockOccupancy } from './occupancy.ts';

/** Separates the parts of a query's key (unit and stand ids hold no newline). */
const PAIR = '\n';

/** The terrain as movement walks read it. */
const terrainQuery = query('vb/terrain', (ctx: VbContext) => buildTerrain(ctx.state));

/** The fire parameters, or the warnings naming the missing ones. */
export const fireSettingsQuery = query('vb/fire-settings', (ctx: VbContext) => fireSettings(ctx), { equal: 'plain' });

/** Every brigade's exhaustion, with the warnings of units that lack its fields. */
export const brigadeMoraleQuery = query('vb/brigade-morale', (ctx: VbContext) => brigadeMorale(ctx));

/** One brigade's standing. */
export const brigadeQuery = query('vb/brigade', (ctx: VbContext, brigadeId: string): BrigadeMorale | undefined => ctx.t.get(brigadeMoraleQuery).brigades.get(brigadeId), { equal: 'plain' });

/** Whether the unit's brigade is exhausted. */
const exhaustedQuery = query('vb/exhausted', (ctx: VbContext, unitId: string): boolean => {
  const b = ctx.units.get(unitId)?.unit.brigadeId;
  return b !== undefined && ctx.t.get(brigadeQuery, b)?.exhausted === true;
});

/** One unit's command (it is fixed at the start of the turn). */
export const commandQuery = query('vb/command', (ctx: VbContext, unitId: string) => unitCommand(ctx, ctx.units.get(unitId)!), { equal: 'plain' });

/** The superior commanders' zones. */
export const commanderZonesQuery = query('vb/commander-zones', (ctx: VbContext) => commanderZones(ctx));

/** Whether a unit's stand is in command (a stand of no unit: undefined), through its unit's command. */
function standInCommand(ctx: VbContext): Pick<ReadonlyMap<string, boolean>, 'get'> {
  return {
    get: (standId) => {
      const s = ctx.t.stand(standId);
      if (!s || !ctx.units.get(s.unitId)) return undefined;
      for (const [id, inCommand] of ctx.t.get(commandQuery, s.unitId).standFlags) if (id === standId) return inCommand;
      return undefined;
    },
  };
}

function exhausted(ctx: VbContext): (unitId: string) => boolean {
  return (unitId) => ctx.t.get(exhaustedQuery, unitId);
}

/**
 * The enemy stands a unit's walks may meet (plain: a friendly stand moving near, or an enemy's status
 * changing, leaves it as it was, and the movement with it).
 */
const movementEnemiesQuery = query('vb/movement-enemies', (ctx: VbContext, unitId: string) => movementEnemies(ctx, ctx.units.get(unitId)!), { equal: 'plain' });

/** One unit's movement. */
export const movementQuery = query(
  'vb/movement',
  (ctx: VbContext, unitId: string) =>
    evaluateMovement(
      ctx,
      ctx.t.get(terrainQuery),
      ctx.units.get(unitId)!,
      standInCommand(ctx),
      (s, allowanceIn, moveIn) => standReach(ctx, ctx.t.get(terrainQuery), ctx.units.get(unitId)!, s, allowanceIn, moveIn, ctx.t.get(movementEnemiesQuery, unitId)),
      (s) => {
        let mask = 0;
        for (const e of ctx.enemyTargets(ctx.units.get(unitId)!.unit.side)) mask = (mask | ctx.t.get(binsCutQuery, `${unitId}${PAIR}${s.stand.id}`, e.id)) >>> 0;
        return mask;
      },
    ),
  { equal: 'plain' },
);

/**
 * The reach directions of an out-of-command stand (key: its unit id, a newline, its stand id) toward the
 * stands it sees of one enemy unit (key2), as a mask: an enemy moving about changes the stand's movement
 * only when it changes which directions are cut.
 */
const binsCutQuery = query('vb/bins-cut', (ctx: VbContext, key: string, enemyId: string): number => {
  const at = key.indexOf(PAIR);
  const info = ctx.units.get(key.slice(0, at))!;
  const standId = key.slice(at + 1);
  const s = info.combatStands.find((x) => x.stand.id === standId)!;
  const enemy = ctx.units.get(enemyId);
  return enemy ? binsCutByEnemy(ctx, s, enemy) : 0;
});

/** A unit's firing stands and their arcs (none without the fire parameters). */
const firersQuery = query('vb/firers', (ctx: VbContext, unitId: string) => {
  const settings = ctx.t.get(fireSettingsQuery).settings;
  return settings ? firersOf(ctx, settings, ctx.units.get(unitId)!) : [];
});


/**
 * The stands that may stand in the way of a fire pair's sight lines (key as `vb/fire-pair`): plain, so a
 * stand moving near the pair but off its lines' corridors leaves the pair as it was.
 */
const fireSightPoolQuery = query(
  'vb/fire-sight-pool',
  (ctx: VbContext, key: string) => {
    const at = key.indexOf(PAIR);
    const firerId = key.slice(0, at);
    return fireSightPool(ctx, ctx.t.get(fireSettingsQuery).settings!, ctx.t.get(firersQuery, firerId), ctx.units.get(key.slice(at + 1))!);
  },
  { equal: 'plain' },
);

/** One unit's fire at one enemy unit (key: firer id, a newline, target id). */
const firePairQuery = query(
  'vb/fire-pair',
  (ctx: VbContext, key: string): FireAtUnit => {
    const at = key.indexOf(PAIR);
    const firerId = key.slice(0, at);
    const info = ctx.units.get(firerId)!;
    const target = ctx.units.get(key.slice(at + 1))!;
    return fireAtUnit(ctx, ctx.t.get(fireSettingsQuery).settings!, info, ctx.t.get(firersQuery, firerId), target, standInCommand(ctx), exhausted(ctx), () => ctx.t.get(fireSightPoolQuery, key));
  },
  { equal: 'plain' },
);

/** The enemy units within reach of a unit's firers, by their boxes (plain ids, in the state's order). */
const fireTargetsQuery = query(
  'vb/fire-targets',
  (ctx: VbContext, unitId: string): readonly string[] => {
    const firers = ctx.t.get(firersQuery, unitId);
    if (firers.length === 0) return [];
    const reach = firersReach(firers);
    return ctx.targetsNear(ctx.units.get(unitId)!.unit.side, reach.box, reach.longestIn).near;
  },
  { equal: 'plain' },
);

/** Every enemy unit with combat stands, and those of them in `near`. */
function targetsOf(ctx: VbContext, side: string, near: readonly string[]): TargetUnits {
  return { all: ctx.enemyTargets(side), near };
}

/** One unit's fire at every enemy unit (undefined without the fire parameters). */
export const fireQuery = query(
  'vb/fire',
  (ctx: VbContext, unitId: string) => {
    const settings = ctx.t.get(fireSettingsQuery).settings;
    if (!settings) return undefined;
    const info = ctx.units.get(unitId)!;
    const targets = targetsOf(ctx, info.unit.side, ctx.t.get(fireTargetsQuery, unitId));
    const atUnit = (_firers: unknown, targetId: string): FireAtUnit => ctx.t.get(firePairQuery, `${unitId}${PAIR}${targetId}`);
    const r = evaluateFire(ctx, settings, info, standInCommand(ctx), exhausted(ctx), atUnit, ctx.t.get(firersQuery, unitId), targets);
    return { fire: r.fire, shapes: r.shapes, missingSaves: [...r.missingSaves] };
  },
  { equal: 'plain' },
);

/** The enemy units near enough to matter to a unit's charges (plain ids, in the state's order). */
const chargeTargetsQuery = query(
  'vb/charge-targets',
  (ctx: VbContext, unitId: string): readonly string[] => {
    const info = ctx.units.get(unitId)!;
    const setup = chargeSetup(ctx, ctx.t.get(terrainQuery), info, exhausted(ctx));
    return setup ? chargeTargets(ctx, info, setup).near : [];
  },
  { equal: 'plain' },
);

/** One unit's charge at one enemy unit near enough to matter (key: charger id, a newline, target id). */
const chargePairQuery = query(
  'vb/charge-pair',
  (ctx: VbContext, key: string): ChargeAtUnit | undefined => {
    const at = key.indexOf(PAIR);
    const info = ctx.units.get(key.slice(0, at))!;
    const terrain = ctx.t.get(terrainQuery);
    const setup = chargeSetup(ctx, terrain, info, exhausted(ctx));
    return setup ? chargeAtUnit(ctx, terrain, setup, info, ctx.units.get(key.slice(at + 1))!, standInCommand(ctx), exhausted(ctx)) : undefined;
  },
  { equal: 'plain' },
);

/** One unit's charges. */
export const chargeQuery = query(
  'vb/charge',
  (ctx: VbContext, unitId: string) => {
    const info = ctx.units.get(unitId)!;
    return evaluateCharge(
      ctx,
      ctx.t.get(terrainQuery),
      info,
      standInCommand(ctx),
      exhausted(ctx),
      () => targetsOf(ctx, info.unit.side, ctx.t.get(chargeTargetsQuery, unitId)),
      (_setup, targetId) => ctx.t.get(chargePairQuery, `${unitId}${PAIR}${targetId}`),
    );
  },
  { equal: 'plain' },
);

/** A superior commander's own movement: his stand's reach (key: the commander's id). */
export const commanderMovementQuery = query(
  'vb/commander-movement',
  (ctx: VbContext, commanderId: string) => {
    const c = ctx.commanders.find((x) => x.commander.id === commanderId);
    return c ? commanderMovementShapes(ctx, ctx.t.get(terrainQuery), c) : [];
  },
  { equal: 'plain' },
);

/** The stands in a town or village block against what it may hold (key: the area's id). */
export const blockOccupancyQuery = query(
  'vb/block-occupancy',
  (ctx: VbContext, areaId: string) => {
    const block = ctx.t.terrain().areas.find((a) => a.id === areaId);
    return block ? blockOccupancy(ctx, block) : [];
  },
  { equal: 'plain' },
);

/** The danger zones of one unit's guns. */
export const dangerQuery = query('vb/danger', (ctx: VbContext, unitId: string) => unitDangerZones(ctx, ctx.units.get(unitId)!), { equal: 'plain' });


/** A unit's charge at an enemy unit as the pair query answers it (for the after-the-roll part: one-shot contexts). */
export function chargePairAt(ctx: VbContext, chargerId: string, targetId: string): ChargeAtUnit | undefined {
  return ctx.t.get(chargePairQuery, `${chargerId}${PAIR}${targetId}`);
}

/** A unit's fire at an enemy unit as the pair query answers it, or undefined without the fire parameters or firers. */
export function firePairAt(ctx: VbContext, firerId: string, targetId: string): FireAtUnit | undefined {
  if (!ctx.t.get(fireSettingsQuery).settings || ctx.t.get(firersQuery, firerId).length === 0) return undefined;
  return ctx.t.get(firePairQuery, `${firerId}${PAIR}${targetId}`);
}

/** Whether the unit's brigade is exhausted (Morale Collapse, p. 5). */
export function brigadeExhausted(ctx: VbContext, unitId: string): boolean {
  return ctx.t.get(exhaustedQuery, unitId);
}

/**
 * The charge pair as if no brigade were exhausted: a melee already joined is still rolled off after its hits
 * exhaust a brigade (exhaustion forbids moving into contact, not finishing a melee).
 */
export function joinedMeleeAt(ctx: VbContext, chargerId: string, targetId: string): ChargeAtUnit | undefined {
  const info = ctx.units.get(chargerId)!;
  const terrain = ctx.t.get(terrainQuery);
  const never = (): boolean => false;
  const setup = chargeSetup(ctx, terrain, info, never);
  return setup ? chargeAtUnit(ctx, terrain, setup, info, ctx.units.get(targetId)!, standInCommand(ctx), never) : undefined;
}
