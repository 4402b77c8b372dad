/**
 * A known table for the end-to-end tests: two regiments facing each other across a 6×4 ft table, some
 * of every terrain type, and an evaluation shaped like the rules' output (reach, arc, priority target,
 * command link, a label). Positions are chosen so the test's probe points sit on exactly one thing.
 */
import type { LiveState } from '@muster/protocol';
import type { Evaluation, Stand, TableState, Unit, UnitEvaluation } from '@muster/rules';

function line(unitId: string, centresX: readonly number[], yIn: number, headingDeg: number): Stand[] {
  return centresX.map((xIn, i) => ({ id: `${unitId}-s${i + 1}`, unitId, pose: { xIn, yIn, headingDeg }, widthIn: 2, depthIn: 1, role: i === 0 ? 'command' : 'base' }));
}

export const UNION_UNIT = 'u-1mn';
export const CONFEDERATE_UNIT = 'c-28va';

export function fixtureTable(): TableState {
  const stands: Stand[] = [
    ...line(UNION_UNIT, [15, 17, 19, 21], 12, 90),
    ...line(CONFEDERATE_UNIT, [41, 43, 45, 47], 36, 270),
    { id: 'gibbon-stand', unitId: 'cmdr-gibbon', pose: { xIn: 18, yIn: 7, headingDeg: 90 }, widthIn: 1.5, depthIn: 1.5, role: 'commander' },
  ];
  const units: Unit[] = [
    { id: UNION_UNIT, name: '1st Minnesota', side: 'union', arm: 'infantry', quality: 'veteran', weapon: 'rifled-musket', brigadeId: 'b-gibbon', standIds: stands.filter((s) => s.unitId === UNION_UNIT).map((s) => s.id) },
    { id: CONFEDERATE_UNIT, name: '28th Virginia', side: 'confederate', arm: 'infantry', quality: 'crack', weapon: 'rifled-musket', standIds: stands.filter((s) => s.unitId === CONFEDERATE_UNIT).map((s) => s.id) },
  ];
  return {
    version: 1,
    table: { widthIn: 72, depthIn: 48 },
    stands,
    units,
    commanders: [{ id: 'cmdr-gibbon', name: 'Gibbon', side: 'union', brigadeId: 'b-gibbon', quality: 'capable', standId: 'gibbon-stand' }],
    terrain: {
      areas: [
        { id: 'woods-1', kind: 'open-woods', vertices: [{ xIn: 55, yIn: 32 }, { xIn: 68, yIn: 33 }, { xIn: 67, yIn: 44 }, { xIn: 56, yIn: 43 }] },
        { id: 'farm-1', kind: 'farm', vertices: [{ xIn: 3, yIn: 3 }, { xIn: 11, yIn: 3 }, { xIn: 11, yIn: 10 }, { xIn: 3, yIn: 10 }] },
      ],
      linear: [
        { id: 'fence-1', kind: 'fence', points: [{ xIn: 24, yIn: 20 }, { xIn: 36, yIn: 22 }] },
        { id: 'stream-1', kind: 'stream', points: [{ xIn: 42, yIn: 0 }, { xIn: 46, yIn: 12 }, { xIn: 53, yIn: 22 }] },
      ],
      roads: [{ id: 'road-1', points: [{ xIn: 0, yIn: 28 }, { xIn: 36, yIn: 27 }, { xIn: 72, yIn: 25 }], widthIn: 1 }],
      elevations: [
        { id: 'hill-1', level: 1, vertices: [{ xIn: 6, yIn: 31 }, { xIn: 24, yIn: 31 }, { xIn: 26, yIn: 44 }, { xIn: 5, yIn: 45 }] },
        { id: 'hill-1b', level: 2, vertices: [{ xIn: 11, yIn: 35 }, { xIn: 19, yIn: 35 }, { xIn: 19, yIn: 41 }, { xIn: 11, yIn: 41 }] },
      ],
    },
  };
}

/** Inside the union reach polygon, clear of stands, arcs and terrain. */
export const UNION_REACH_PROBE = { xIn: 11, yIn: 18 };
/** Inside the confederate reach polygon, clear of its stands. */
export const CONFEDERATE_REACH_PROBE = { xIn: 39.5, yIn: 31 };
/** Where a tag the roster does not know is seen. */
export const UNKNOWN_TAG_AT = { xIn: 60, yIn: 20 };
/** A roster status chip ("hit") lying on open cloth. */
export const HIT_CHIP_AT = { xIn: 64, yIn: 16 };
/** The commander's stand: its tag is held by the tracker but not seen. */
export const OCCLUDED_STAND = 'gibbon-stand';
/** Inside both union arcs and nothing else. */
export const DOUBLE_ARC_PROBE = { xIn: 18, yIn: 30 };
/** Inside the 'blocked' polygon on the table, and past the table's edge inside the same polygon. */
export const BLOCKED_ON_TABLE = { xIn: 70, yIn: 46.5 };
export const BLOCKED_OFF_TABLE = { xIn: 74, yIn: 46.5 };
/** Bare cloth. */
export const CLOTH_PROBE = { xIn: 66, yIn: 6 };

function unionEvaluation(): UnitEvaluation {
  return {
    unitId: UNION_UNIT,
    formation: { formation: 'line', confidence: 0.97, source: 'geometry' },
    movement: { ok: true, allowanceIn: 6, reach: [], notes: ['line: 6"'] },
    fire: [
      {
        ok: true,
        targetUnitId: CONFEDERATE_UNIT,
        eligibleStandIds: [`${UNION_UNIT}-s2`, `${UNION_UNIT}-s3`, `${UNION_UNIT}-s4`],
        rangeIn: 22.6,
        band: '24"',
        breakdown: {
          baseDice: 4,
          modifiers: [
            { label: 'Long range (12–24")', dice: -1, source: 'The Devil to Pay, Fire, p. 23' },
            { label: 'Target crack', dice: 0, source: 'The Devil to Pay, Troop Quality, p. 7' },
          ],
          dice: 3,
          limits: [],
        },
        priority: true,
      },
    ],
    charge: [{ ok: false, targetUnitId: CONFEDERATE_UNIT, reason: 'charge/out-of-reach', detail: '22.6" away; charge reach 8"' }],
    rally: { ok: false, reason: 'rally/not-disordered' },
    command: { brigadeFormationUnitIds: [], commanderInRangeId: 'cmdr-gibbon' },
  };
}

function confederateEvaluation(): UnitEvaluation {
  return {
    unitId: CONFEDERATE_UNIT,
    formation: { formation: 'line', confidence: 0.95, source: 'geometry' },
    movement: { ok: true, allowanceIn: 6, reach: [], notes: [] },
    fire: [{ ok: false, targetUnitId: UNION_UNIT, reason: 'fire/target-out-of-arc' }],
    charge: [],
    rally: { ok: false, reason: 'rally/not-disordered' },
    command: { brigadeFormationUnitIds: [] },
  };
}

export function fixtureEvaluation(): Evaluation {
  return {
    rulesetId: 'devil-to-pay',
    units: { [UNION_UNIT]: unionEvaluation(), [CONFEDERATE_UNIT]: confederateEvaluation() },
    shapes: [
      { id: `${UNION_UNIT}/reach`, kind: 'polygon', layer: 'movement', style: 'reach', unitId: UNION_UNIT, side: 'union',
        vertices: [{ xIn: 8, yIn: 9 }, { xIn: 28, yIn: 9 }, { xIn: 28, yIn: 19 }, { xIn: 18, yIn: 21 }, { xIn: 8, yIn: 19 }] },
      { id: `${UNION_UNIT}/arc`, kind: 'sector', layer: 'fire', style: 'arc', unitId: UNION_UNIT, center: { xIn: 18, yIn: 12.5 }, radiusIn: 24, startDeg: 45, endDeg: 135 },
      // A second, overlapping arc (as from another stand of the unit): overlaps must not stack.
      { id: `${UNION_UNIT}/arc-2`, kind: 'sector', layer: 'fire', style: 'arc', unitId: UNION_UNIT, center: { xIn: 18.5, yIn: 12.5 }, radiusIn: 24, startDeg: 50, endDeg: 130 },
      { id: `${UNION_UNIT}/target/${CONFEDERATE_UNIT}`, kind: 'polyline', layer: 'fire', style: 'target-priority', unitId: UNION_UNIT, arrow: true, points: [{ xIn: 18, yIn: 12.6 }, { xIn: 43, yIn: 35.4 }] },
      { id: `${UNION_UNIT}/dice`, kind: 'label', layer: 'labels', style: 'label', unitId: UNION_UNIT, at: { xIn: 30, yIn: 24.5 }, text: '3 dice', sizeIn: 0.8 },
      { id: `${UNION_UNIT}/link`, kind: 'polyline', layer: 'command', style: 'link', unitId: UNION_UNIT, points: [{ xIn: 18, yIn: 7.8 }, { xIn: 18, yIn: 11.4 }] },
      // Runs past the table's right and far edges: must stop at them.
      { id: `${CONFEDERATE_UNIT}/blocked`, kind: 'polygon', layer: 'movement', style: 'blocked', unitId: CONFEDERATE_UNIT,
        vertices: [{ xIn: 66, yIn: 45 }, { xIn: 76, yIn: 45 }, { xIn: 76, yIn: 50 }, { xIn: 66, yIn: 50 }] },
      { id: `${CONFEDERATE_UNIT}/reach`, kind: 'polygon', layer: 'movement', style: 'reach', unitId: CONFEDERATE_UNIT, side: 'confederate',
        vertices: [{ xIn: 38, yIn: 30 }, { xIn: 50, yIn: 30 }, { xIn: 50, yIn: 42 }, { xIn: 38, yIn: 42 }] },
    ],
    warnings: [],
  };
}

export function fixtureLiveState(seq = 1): LiveState {
  const tableState = fixtureTable();
  const captureTimeMs = Date.now();
  return {
    seq,
    frameSeq: seq,
    captureTimeMs,
    turn: 1,
    tableState,
    evaluation: fixtureEvaluation(),
    evaluatedState: { seq, frameSeq: seq, captureTimeMs },
    tracks: [
      { trackId: 1, markerId: 99, standId: null, pose: { ...UNKNOWN_TAG_AT, headingDeg: 0 }, lastSeenMs: Date.now(), occluded: false },
      { trackId: 2, markerId: 18, standId: OCCLUDED_STAND, pose: { xIn: 18, yIn: 7, headingDeg: 90 }, lastSeenMs: Date.now() - 500, occluded: true },
      { trackId: 3, markerId: 40, standId: null, chip: 'hit', pose: { ...HIT_CHIP_AT, headingDeg: 0 }, lastSeenMs: Date.now(), occluded: false },
    ],
    liveTrackIds: [1, 2, 3],
    roster: { name: 'e2e', bindings: tableState.stands.map((s, i) => ({ markerId: 10 + i, standId: s.id })).slice(1), unknownMarkerIds: [99] },
    profile: { name: 'e2e table', widthIn: 72, depthIn: 48, source: 'camera', frameWidthPx: 1920, frameHeightPx: 1080, homography: null, residualIn: 0.03 },
    health: { status: 'ok', frameRateHz: 30, trackedStands: 9, unknownTags: 1, processingMs: 5, clients: 0, uptimeS: 1, warnings: [] },
  };
}
