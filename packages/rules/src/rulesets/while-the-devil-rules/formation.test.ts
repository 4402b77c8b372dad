import { describe, expect, it } from 'vitest';
import { parseTableState, type TableState } from '../../index.ts';
import { buildContext } from './evaluate.ts';
import {
  WTDR_BASES, column, dutchSlots, mm, row, swarmSlots, swedishSlots, tercioDeepSlots, tercioExtendedSlots, wtdrScene, type Slot,
} from '../../../../../fixtures/rules/while-the-devil-rules/wtdrScene.ts';

function read(troopType: string, slots: Slot[], headingDeg = 90, extra: Partial<{ params: Record<string, string | number> }> = {}): { name?: string; formation: string; confidence: number } {
  const state: TableState = parseTableState(wtdrScene([{ id: 'u', side: 'a', troopType, slots, at: { xIn: 30, yIn: 20 }, headingDeg }], extra.params ? { params: extra.params } : {}));
  return buildContext(state).units.get('u')!.formation.reading;
}

describe('formations read from the bases (Formations)', () => {
  it.each([
    ['dutch-battalion', dutchSlots(), 'line', 'Dutch battalion'],
    ['tercio', tercioExtendedSlots(), 'block', 'Tercio (extended)'],
    ['tercio', tercioDeepSlots(), 'block', 'Tercio (deep)'],
    ['swedish-brigade', swedishSlots(), 'block', 'Swedish brigade'],
    ['commanded-shot', row(WTDR_BASES.shot, 3), 'line', 'Commanded shot (one base deep)'],
    ['streltsy', row(WTDR_BASES.shot, 2), 'line', 'Streltsy (one base deep)'],
    ['cuirassier', row(WTDR_BASES.cavalry, 2), 'line', 'Cuirassier (two bases side by side)'],
    ['light-horse', row(WTDR_BASES.cavalry, 3), 'loose-order', 'Irregular light horse (in contact, one facing)'],
    ['forlorn-hope', swarmSlots(8, WTDR_BASES.figureFoot, 1.5), 'loose-order', 'Forlorn hope (swarm)'],
    ['dragoons', swarmSlots(6, WTDR_BASES.figureMounted, 1.9), 'loose-order', 'Dragoons (swarm)'],
    ['light-artillery', [{ size: WTDR_BASES.artillery, back: 0, left: 0 }], 'unlimbered', 'Light artillery (one base deep)'],
    ['reiter', column(WTDR_BASES.cavalry, 2), 'march-column', 'March column'],
    ['commanded-shot', column(WTDR_BASES.shot, 3), 'march-column', 'March column'],
  ])('%s laid out as %s reads %s', (type, slots, formation, name) => {
    const r = read(type, slots as Slot[], 33);
    expect(r.formation).toBe(formation);
    expect(r.name).toBe(name);
    expect(r.confidence).toBe(1);
  });

  it('loses confidence when the bases do not keep their places', () => {
    const gappy = row(WTDR_BASES.shot, 3, 0, 1.2);
    expect(read('commanded-shot', gappy).confidence).toBeLessThan(0.5);
    const spread = swarmSlots(8, WTDR_BASES.figureFoot, 3); // more than 2" centre to centre
    expect(read('forlorn-hope', spread).confidence).toBeLessThan(0.5);
    const turned = row(WTDR_BASES.cavalry, 2).map((s, i) => ({ ...s, turnDeg: i * 25 }));
    expect(read('cuirassier', turned).confidence).toBeLessThan(0.5);
  });

  it('reads wrong-sized bases with low confidence and half-size bases under base-scale "half"', () => {
    const half = { w: mm(40), d: mm(20) };
    expect(read('commanded-shot', row(half, 2)).confidence).toBe(0);
    expect(read('commanded-shot', row(half, 2), 90, { params: { 'base-scale': 'half' } }).confidence).toBe(1);
  });

  it('tells the large tercio and large Swedish brigade by their 8 bases', () => {
    const { shot, pike } = WTDR_BASES;
    const large: Slot[] = [...tercioExtendedSlots().filter((s) => s.size === shot), ...row(pike, 2, 0), ...row(pike, 2, pike.d)];
    // the castles of a large tercio flank a 2 x 2 pike block: move the rear castles back one pike depth
    const fixed = large.map((s) => (s.size === shot && s.back > 0 ? { ...s, back: 2 * pike.d - shot.d } : s));
    expect(read('tercio', fixed).name).toBe('Large tercio');
    const brigade: Slot[] = [...swedishSlots(), { size: shot, back: 2 * pike.d, left: pike.w }, { size: shot, back: 2 * pike.d, left: -pike.w }];
    const r = read('swedish-brigade', brigade);
    expect(r.name).toBe('Large Swedish brigade (4 squadrons)');
    expect(r.confidence).toBe(1);
  });

  it('takes an operator-set march column over the geometry', () => {
    const state = parseTableState(wtdrScene([{ id: 'u', side: 'a', troopType: 'light-artillery', slots: [{ size: WTDR_BASES.artillery, back: 0, left: 0 }], at: { xIn: 30, yIn: 20 }, headingDeg: 90, status: { formation: 'march-column' } }]));
    const f = buildContext(state).units.get('u')!.formation;
    expect(f.march).toBe(true);
    expect(f.reading).toMatchObject({ formation: 'march-column', source: 'status', confidence: 1 });
  });
});
