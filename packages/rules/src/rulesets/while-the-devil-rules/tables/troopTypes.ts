/**
 * The troop types of While the Devil Rules ("Units, Troop Types, and Base Sizes"; "Formations"; "Fire"),
 * each with what the rules read from it: its formation family, how many bases, what it fires with, how it
 * pays for terrain, and which charges it may make. Every entry cites the section it comes from.
 */

export type TroopTypeId =
  | 'dutch-battalion'
  | 'veteran-dutch-battalion'
  | 'tercio'
  | 'veteran-tercio'
  | 'swedish-brigade'
  | 'commanded-shot'
  | 'streltsy'
  | 'sword-and-buckler'
  | 'levy'
  | 'forlorn-hope'
  | 'dragoons'
  | 'guard-cuirassier'
  | 'cuirassier'
  | 'harquebusier'
  | 'reiter'
  | 'hackapell'
  | 'light-horse'
  | 'light-artillery'
  | 'medium-artillery'
  | 'heavy-artillery'
  | 'camp';

/**
 * Formation families (Formations): pike & shot blocks with fixed base positions; one-base-deep foot lines;
 * formed cavalry two bases side by side; irregular light horse in contact sharing a facing; swarms of
 * individually based figures with no flanks or rear; artillery bases.
 */
export type FormationFamily = 'pike-and-shot' | 'foot-line' | 'formed-cavalry' | 'light-horse' | 'swarm' | 'artillery' | 'camp';

/** How the unit pays for terrain (Movement, terrain table notes). */
export type MovementClass = 'foot' | 'forlorn-hope' | 'dragoons' | 'light-horse' | 'mounted' | 'light-artillery' | 'medium-artillery' | 'heavy-artillery' | 'camp';

/** Fire weapon row of the range table (Fire). */
export type WeaponId = 'musket' | 'carbine-bow' | 'pistol' | 'light-artillery' | 'medium-artillery' | 'heavy-artillery';

/** When the type may fire (Fire, first two paragraphs). */
export type FireRule = 'always' | 'charging-only' | 'if-equipped' | 'never';

export interface TroopType {
  readonly id: TroopTypeId;
  readonly label: string;
  readonly family: FormationFamily;
  readonly movement: MovementClass;
  /** Mounted for movement and charges ("Considered mounted for movement purposes" for dragoons). */
  readonly mounted: boolean;
  readonly weapon: WeaponId | null;
  readonly fires: FireRule;
  /** Bases the unit is represented by: allowed counts (game bases, not figures for swarms). */
  readonly baseCounts: readonly number[];
  /** For pike & shot: pike bases among them, by total (Formations). */
  readonly pikeBasesByTotal?: Readonly<Record<number, number>>;
  readonly source: string;
}

const UNITS = 'Units, Troop Types, and Base Sizes';
const FORM = 'Formations';

export const TROOP_TYPES: readonly TroopType[] = [
  // "Dutch Battalion ... Represented by 3 bases (one pike, two musketeers)."
  { id: 'dutch-battalion', label: 'Dutch battalion', family: 'pike-and-shot', movement: 'foot', mounted: false, weapon: 'musket', fires: 'always', baseCounts: [3], pikeBasesByTotal: { 3: 1 }, source: `${UNITS}; ${FORM} (Dutch Battalions)` },
  // "Veteran Dutch Battalion: As above, but composed of veteran troops."
  { id: 'veteran-dutch-battalion', label: 'Veteran Dutch battalion', family: 'pike-and-shot', movement: 'foot', mounted: false, weapon: 'musket', fires: 'always', baseCounts: [3], pikeBasesByTotal: { 3: 1 }, source: `${FORM} (Dutch Battalions)` },
  // "a large central pike block (2 or 4 bases) with four 'castles' of musketeers"; 6 bases (2000 men) or 8 (large)
  { id: 'tercio', label: 'Tercio', family: 'pike-and-shot', movement: 'foot', mounted: false, weapon: 'musket', fires: 'always', baseCounts: [6, 8], pikeBasesByTotal: { 6: 2, 8: 4 }, source: `${UNITS} (Tercio); ${FORM} (Tercios)` },
  { id: 'veteran-tercio', label: 'Veteran tercio', family: 'pike-and-shot', movement: 'foot', mounted: false, weapon: 'musket', fires: 'always', baseCounts: [6, 8], pikeBasesByTotal: { 6: 2, 8: 4 }, source: `${UNITS} (Veteran Tercio)` },
  // "a wedge formation involving 6 - 8 bases (3 pike, the rest musketeers)"; 6 bases (3 squadrons) or 8 (4)
  { id: 'swedish-brigade', label: 'Swedish brigade', family: 'pike-and-shot', movement: 'foot', mounted: false, weapon: 'musket', fires: 'always', baseCounts: [6, 8], pikeBasesByTotal: { 6: 3, 8: 3 }, source: `${UNITS} (Swedish Brigade); ${FORM} (Swedish Brigade)` },
  // "Represented by 1 - 3 bases."
  { id: 'commanded-shot', label: 'Commanded shot', family: 'foot-line', movement: 'foot', mounted: false, weapon: 'musket', fires: 'always', baseCounts: [1, 2, 3], source: `${UNITS} (Commanded Shot)` },
  { id: 'streltsy', label: 'Streltsy', family: 'foot-line', movement: 'foot', mounted: false, weapon: 'musket', fires: 'always', baseCounts: [1, 2, 3], source: `${UNITS} (Streltsy)` },
  // "Sword & Bucklermen never fire."
  { id: 'sword-and-buckler', label: 'Sword & bucklermen', family: 'foot-line', movement: 'foot', mounted: false, weapon: null, fires: 'never', baseCounts: [1, 2, 3], source: `${UNITS} (Sword & Bucklermen); Fire` },
  // "Militia/Levy ... (1 - 4 bases)"; "Levy/Militia may or may not be equipped with missile weapons, also by scenario"
  { id: 'levy', label: 'Militia/levy', family: 'foot-line', movement: 'foot', mounted: false, weapon: 'musket', fires: 'if-equipped', baseCounts: [1, 2, 3, 4], source: `${UNITS} (Militia/Levy); Fire` },
  // "Represented by a single 'base' (eight individually mounted figures)."
  { id: 'forlorn-hope', label: 'Forlorn hope', family: 'swarm', movement: 'forlorn-hope', mounted: false, weapon: 'musket', fires: 'always', baseCounts: [1], source: `${UNITS} (Forlorn Hope)` },
  // "a single 'base' of 6 individually mounted figures ... Considered mounted for movement purpooses."
  { id: 'dragoons', label: 'Dragoons', family: 'swarm', movement: 'dragoons', mounted: true, weapon: 'musket', fires: 'always', baseCounts: [1], source: `${UNITS} (Dragoons)` },
  // Formed cavalry: "represented by a pair of bases"; "never fire" (Fire)
  { id: 'guard-cuirassier', label: 'Guard cuirassier/lancers', family: 'formed-cavalry', movement: 'mounted', mounted: true, weapon: null, fires: 'never', baseCounts: [2], source: `${UNITS} (Guard Cuirassier/Lancers); Fire` },
  // "Cuirassiers and Reiters will only fire when charging or being charged."
  { id: 'cuirassier', label: 'Cuirassier', family: 'formed-cavalry', movement: 'mounted', mounted: true, weapon: 'pistol', fires: 'charging-only', baseCounts: [2], source: `${UNITS} (Cuirassier); Fire` },
  { id: 'harquebusier', label: 'Harquebusier', family: 'formed-cavalry', movement: 'mounted', mounted: true, weapon: 'carbine-bow', fires: 'always', baseCounts: [2], source: `${UNITS} (Harquebusier); Fire` },
  // Eastern reiters "armed with bows ... may be given the ability to fire by scenario" (unit field bowsOrFirearms)
  { id: 'reiter', label: 'Reiter', family: 'formed-cavalry', movement: 'mounted', mounted: true, weapon: 'pistol', fires: 'charging-only', baseCounts: [2], source: `${UNITS} (Reiter); Fire` },
  { id: 'hackapell', label: 'Finnish hackapells', family: 'formed-cavalry', movement: 'mounted', mounted: true, weapon: null, fires: 'never', baseCounts: [2], source: `${UNITS} (Finnish Hackapells); Fire` },
  // "Units are of 2 or 3 bases ... operating in a swarm."
  { id: 'light-horse', label: 'Irregular light horse', family: 'light-horse', movement: 'light-horse', mounted: true, weapon: 'carbine-bow', fires: 'always', baseCounts: [2, 3], source: `${UNITS} (Irregular Light Horse); Fire` },
  // "Usually deployed as single bases, but may be organized in multi-base units."
  { id: 'light-artillery', label: 'Light artillery', family: 'artillery', movement: 'light-artillery', mounted: false, weapon: 'light-artillery', fires: 'always', baseCounts: [1, 2, 3, 4], source: `${UNITS} (Light Artillery)` },
  { id: 'medium-artillery', label: 'Medium artillery', family: 'artillery', movement: 'medium-artillery', mounted: false, weapon: 'medium-artillery', fires: 'always', baseCounts: [1, 2, 3, 4], source: `${UNITS} (Medium/Heavy Artillery)` },
  // "'heavy' mortars and seige guns ... may only pivot in place"
  { id: 'heavy-artillery', label: 'Heavy artillery', family: 'artillery', movement: 'heavy-artillery', mounted: false, weapon: 'heavy-artillery', fires: 'always', baseCounts: [1, 2, 3, 4], source: `${UNITS} (Medium/Heavy Artillery); Movement` },
  // "counting the baggage or camp as a unit if there is one (generally as a single base)" (Army Morale). The
  // guide gives it no move, fire or charge; it may be sacked (Combat Effects and Rallying).
  { id: 'camp', label: 'Baggage or camp', family: 'camp', movement: 'camp', mounted: false, weapon: null, fires: 'never', baseCounts: [1], source: 'Army Morale; Combat Effects and Rallying' },
];

const BY_ID = new Map(TROOP_TYPES.map((t) => [t.id, t]));

/** The troop type with this id, or undefined. */
export function troopType(id: string | undefined): TroopType | undefined {
  return id === undefined ? undefined : BY_ID.get(id as TroopTypeId);
}
