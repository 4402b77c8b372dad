/** Which weapon a unit fires with, if any: its troop type's, subject to equipment and scenario (Fire). */
import type { UnitInfo } from './context.ts';
import type { WeaponId } from './tables/troopTypes.ts';

/** The weapon the unit fires with now, or null when it may not fire outside charges. */
export function fireWeapon(info: UnitInfo): WeaponId | null {
  const t = info.type;
  if (!t || t.weapon === null || t.fires === 'never') return null;
  const equipped = info.unit.rulesetFields?.['missile-armed'] === true;
  if (t.fires === 'if-equipped') return equipped ? t.weapon : null;
  // Eastern reiters with bows/firearms "may be given the ability to fire by scenario" (the carbine/bow row).
  if (t.fires === 'charging-only') return t.id === 'reiter' && equipped ? 'carbine-bow' : null;
  return t.weapon;
}
