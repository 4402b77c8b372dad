/**
 * Broken table states made by mutating a valid scene, each with the path the validator must name and
 * whether the JSON Schema can see the problem too (shape) or only the validator (references).
 */
export interface BrokenSample {
  readonly name: string;
  /** Mutates a deep copy of a valid scene in place. */
  readonly mutate: (s: any) => void;
  /** The path the validator's message must name. */
  readonly path: string;
  /** Part of the message after the path. */
  readonly says: RegExp;
  /** 'shape': the schema rejects it too; 'reference': only the validator does. */
  readonly kind: 'shape' | 'reference';
}

export const brokenSamples: readonly BrokenSample[] = [
  { name: 'not an object', mutate: () => {}, path: '', says: /expected an object/, kind: 'shape' },
  { name: 'wrong version', mutate: (s) => (s.version = 2), path: 'version', says: /expected 1/, kind: 'shape' },
  { name: 'missing table', mutate: (s) => delete s.table, path: 'table', says: /missing/, kind: 'shape' },
  { name: 'zero width', mutate: (s) => (s.table.widthIn = 0), path: 'table.widthIn', says: /above 0/, kind: 'shape' },
  { name: 'string coordinate', mutate: (s) => (s.stands[2].pose.xIn = '12'), path: 'stands[2].pose.xIn', says: /finite number/, kind: 'shape' },
  { name: 'heading not normalised', mutate: (s) => (s.stands[1].pose.headingDeg = 450), path: 'stands[1].pose.headingDeg', says: /\[0, 360\).*write 90/, kind: 'shape' },
  { name: 'negative heading', mutate: (s) => (s.stands[1].pose.headingDeg = -90), path: 'stands[1].pose.headingDeg', says: /write 270/, kind: 'shape' },
  { name: 'unknown role', mutate: (s) => (s.stands[0].role = 'flag'), path: 'stands[0].role', says: /one of base, command/, kind: 'shape' },
  { name: 'typo field', mutate: (s) => (s.units[0].qualty = 'crack'), path: 'units[0].qualty', says: /unknown field/, kind: 'shape' },
  { name: 'bad arm', mutate: (s) => (s.units[1].arm = 'navy'), path: 'units[1].arm', says: /infantry, cavalry, artillery/, kind: 'shape' },
  { name: 'bad quality', mutate: (s) => (s.units[0].quality = 'elite'), path: 'units[0].quality', says: /crack, veteran, trained, green/, kind: 'shape' },
  { name: 'sharpshooters not boolean', mutate: (s) => (s.units[0].sharpshooters = 'yes'), path: 'units[0].sharpshooters', says: /true or false/, kind: 'shape' },
  { name: 'unknown optional rule', mutate: (s) => (s.optionalRules = ['split-fire', 'whiskey']), path: 'optionalRules[1]', says: /one of trained-veteran, split-fire, hasty-works/, kind: 'shape' },
  { name: 'optional rule twice', mutate: (s) => (s.optionalRules = ['split-fire', 'split-fire']), path: 'optionalRules[1]', says: /listed twice/, kind: 'shape' },
  { name: 'optionalRules not a list', mutate: (s) => (s.optionalRules = 'split-fire'), path: 'optionalRules', says: /expected an array/, kind: 'shape' },
  { name: 'no starting stands', mutate: (s) => (s.units[0].startingStands = 0), path: 'units[0].startingStands', says: /at least 1|>= 1/, kind: 'shape' },
  { name: 'fractional starting stands', mutate: (s) => (s.units[0].startingStands = 2.5), path: 'units[0].startingStands', says: /whole number/, kind: 'shape' },
  { name: 'fractional hits', mutate: (s) => (s.units[0].status = { hitsByStand: { [s.units[0].standIds[0]]: 0.5 } }), path: `units[0].status.hitsByStand.`, says: /whole number/, kind: 'shape' },
  { name: 'area with two vertices', mutate: (s) => (s.terrain.areas[0].vertices.length = 2), path: 'terrain.areas[0].vertices', says: /at least 3/, kind: 'shape' },
  { name: 'elevation level 0', mutate: (s) => (s.terrain.elevations[0].level = 0), path: 'terrain.elevations[0].level', says: /at least 1/, kind: 'shape' },
  { name: 'unknown stand in unit', mutate: (s) => (s.units[3].standIds[1] = 's99'), path: 'units[3].standIds[1]', says: /unknown stand "s99"/, kind: 'reference' },
  { name: 'duplicate stand id', mutate: (s) => (s.stands[1].id = s.stands[0].id), path: 'stands[1].id', says: /duplicate stand id/, kind: 'reference' },
  { name: 'stand names another unit', mutate: (s) => (s.stands[0].unitId = s.units[1].id), path: 'units[0].standIds[0]', says: /says it belongs to/, kind: 'reference' },
  { name: 'stand of no unit', mutate: (s) => (s.stands[0].unitId = 'ghost'), path: 'stands[0].unitId', says: /unknown unit or commander "ghost"/, kind: 'reference' },
  { name: 'stand in two units', mutate: (s) => s.units[1].standIds.push(s.units[0].standIds[0]), path: 'units[1].standIds', says: /already listed at units\[0\]/, kind: 'reference' },
  { name: 'commander of an unknown brigade', mutate: (s) => (s.commanders[0].brigadeId = 'nobody'), path: 'commanders[0].brigadeId', says: /no unit has brigadeId "nobody"/, kind: 'reference' },
  { name: 'commander stand missing', mutate: (s) => (s.commanders[0].standId = 'nowhere'), path: 'commanders[0].standId', says: /unknown stand "nowhere"/, kind: 'reference' },
  { name: 'attached to unknown unit', mutate: (s) => (s.commanders[0].attachedToUnitId = 'u-missing'), path: 'commanders[0].attachedToUnitId', says: /unknown unit "u-missing"/, kind: 'reference' },
  { name: 'unit stand with commander role', mutate: (s) => (s.stands[0].role = 'commander'), path: 'stands[0].role', says: /cannot have role "commander"/, kind: 'reference' },
  { name: 'commander stand with base role', mutate: (s) => (s.stands[s.stands.length - 1].role = 'base'), path: 'stands[', says: /must have role "commander"/, kind: 'reference' },
  { name: 'duplicate unit id', mutate: (s) => (s.units[1].id = s.units[0].id), path: 'units[1].id', says: /duplicate unit or commander id/, kind: 'reference' },
];
