/** Protocol 4: `set-ruleset`, `set-focus`, and `LiveState.ruleset` / `LiveState.focus` through deltas. */
import { describe, expect, it } from 'vitest';
import type { LiveState, RulesetChoiceState, SharedFocus } from './messages.ts';
import { applyDelta, diffLiveState } from './delta.ts';
import { checkRulesetChoice, parseClientMessage, parseServerMessage } from './validate.ts';
import { LIMITS, OLDEST_SUPPORTED_PROTOCOL_VERSION, PROTOCOL_VERSION, isSupportedProtocolVersion } from './version.ts';
import { emptyLiveState } from '../../../fixtures/protocol/emptyLiveState.ts';

const INSTALLED = [
  { id: 'devil-to-pay', name: 'The Devil to Pay', source: '2018' },
  { id: 'volley-and-bayonet', name: 'Volley & Bayonet', source: 'AWITA' },
];

const measure = { from: { xIn: 1, yIn: 2, standId: 'al19-1' }, to: { xIn: 30.5, yIn: 20, standId: null } };

function parsed(m: unknown) {
  return parseClientMessage(JSON.stringify(m));
}

describe('set-ruleset', () => {
  it('accepts a well-formed id', () => {
    expect(parsed({ type: 'set-ruleset', rulesetId: 'volley-and-bayonet', requestId: 'r' })).toEqual({
      ok: true,
      value: { type: 'set-ruleset', rulesetId: 'volley-and-bayonet', requestId: 'r' },
    });
  });

  it('refuses garbage, wrong types, missing and extra fields with the path', () => {
    const bad: [unknown, RegExp][] = [
      [{ type: 'set-ruleset' }, /rulesetId: expected a string/],
      [{ type: 'set-ruleset', rulesetId: 7 }, /rulesetId: expected a string, got number/],
      [{ type: 'set-ruleset', rulesetId: null }, /rulesetId: expected a string, got null/],
      [{ type: 'set-ruleset', rulesetId: ['devil-to-pay'] }, /rulesetId: expected a string, got an array/],
      [{ type: 'set-ruleset', rulesetId: '' }, /rulesetId: expected a rule-set id/],
      [{ type: 'set-ruleset', rulesetId: 'Devil To Pay' }, /rulesetId: expected a rule-set id/],
      [{ type: 'set-ruleset', rulesetId: '../../etc/passwd' }, /rulesetId: expected a rule-set id/],
      [{ type: 'set-ruleset', rulesetId: 'a'.repeat(LIMITS.maxRulesetIdChars + 1) }, /at most 64 characters/],
      [{ type: 'set-ruleset', rulesetId: 'devil-to-pay', force: true }, /unknown field "force"/],
    ];
    for (const [m, why] of bad) {
      const r = parsed(m);
      expect(r.ok, JSON.stringify(m)).toBe(false);
      if (!r.ok) {
        expect(r.code).toBe('invalid-message');
        expect(r.message).toMatch(why);
      }
    }
    expect(parseClientMessage('{"type":"set-ruleset","rulesetId":')).toMatchObject({ ok: false, code: 'bad-json' });
  });

  it('an id that is not installed is not-found, naming the installed ones', () => {
    expect(checkRulesetChoice('volley-and-bayonet', INSTALLED)).toEqual({ ok: true, value: INSTALLED[1] });
    const r = checkRulesetChoice('warhammer', INSTALLED);
    expect(r).toMatchObject({ ok: false, code: 'not-found' });
    if (!r.ok) expect(r.message).toBe('no rule set "warhammer" is installed (installed: devil-to-pay, volley-and-bayonet)');
    expect(checkRulesetChoice('devil-to-pay', [])).toMatchObject({ ok: false, message: expect.stringContaining('installed: none') });
  });
});

describe('set-focus', () => {
  it('accepts a unit and a measurement, or nulls', () => {
    const full = { type: 'set-focus', unitId: 'al19', measure: { ...measure, to: { ...measure.to, standId: 'us2-1', ghost: true } } };
    expect(parsed(full)).toEqual({ ok: true, value: full });
    expect(parsed({ type: 'set-focus', unitId: null, measure: null })).toEqual({ ok: true, value: { type: 'set-focus', unitId: null, measure: null } });
  });

  it('refuses garbage and out-of-range coordinates with the path', () => {
    const bad: [unknown, RegExp][] = [
      [{ type: 'set-focus' }, /unitId: required/],
      [{ type: 'set-focus', unitId: null }, /measure: required/],
      [{ type: 'set-focus', unitId: 3, measure: null }, /unitId: expected a string/],
      [{ type: 'set-focus', unitId: '', measure: null }, /unitId: must not be empty/],
      [{ type: 'set-focus', unitId: null, measure: 'tape' }, /measure: expected an object, got a string/],
      [{ type: 'set-focus', unitId: null, measure: { from: measure.from } }, /measure.to: expected an object, got undefined/],
      [{ type: 'set-focus', unitId: null, measure: { ...measure, to: { xIn: 1, yIn: 2 } } }, /measure.to.standId: required/],
      [{ type: 'set-focus', unitId: null, measure: { ...measure, to: { xIn: '1', yIn: 2, standId: null } } }, /measure.to.xIn: expected a finite number/],
      [{ type: 'set-focus', unitId: null, measure: { ...measure, from: { xIn: 1, yIn: 1e9, standId: null } } }, /measure.from.yIn: must be in -10000..10000/],
      [{ type: 'set-focus', unitId: null, measure: { ...measure, from: { xIn: 1, yIn: 1, standId: null, ghost: true } } }, /measure.from.ghost: only with a standId/],
      [{ type: 'set-focus', unitId: null, measure: { ...measure, extra: 1 } }, /measure: unknown field "extra"/],
      [{ type: 'set-focus', unitId: 'x'.repeat(LIMITS.maxIdChars + 1), measure: null }, /unitId: at most 128 characters/],
    ];
    for (const [m, why] of bad) {
      const r = parsed(m);
      expect(r.ok, JSON.stringify(m)).toBe(false);
      if (!r.ok) expect(r.message, JSON.stringify(m)).toMatch(why);
    }
    // NaN and Infinity are not JSON: they arrive as null and are refused as not numbers.
    expect(parsed({ type: 'set-focus', unitId: null, measure: { ...measure, from: { xIn: NaN, yIn: 0, standId: null } } }).ok).toBe(false);
  });
});

describe('version 4 (and 5 and 6 after it)', () => {
  it('is served, and still serves version 1 clients (versions 4 to 6 only added message types)', () => {
    expect(PROTOCOL_VERSION).toBe(6);
    expect(OLDEST_SUPPORTED_PROTOCOL_VERSION).toBe(1);
    expect([1, 2, 3, 4, 5, 6].every(isSupportedProtocolVersion)).toBe(true);
    expect(isSupportedProtocolVersion(7)).toBe(false);
  });
});

function liveState(seq: number, ruleset: RulesetChoiceState | undefined, focus: SharedFocus | undefined): LiveState {
  return emptyLiveState(seq, { ...(ruleset ? { ruleset } : {}), ...(focus ? { focus } : {}) });
}

describe('ruleset and focus in deltas', () => {
  const dtp: RulesetChoiceState = { current: INSTALLED[0]!, installed: INSTALLED, rosterProblems: [] };
  const vb: RulesetChoiceState = { current: INSTALLED[1]!, installed: INSTALLED, rosterProblems: ['units[0] (al19).rulesetFields.morale: missing'] };
  const none: SharedFocus = { unitId: null, measure: null };
  const focused: SharedFocus = { unitId: 'al19', measure };

  it('sends each only when it changed, and applying brings the view to the new state', () => {
    const a = liveState(1, dtp, none);
    const b = liveState(2, vb, focused);
    const d = diffLiveState(a, b, 5);
    expect(d.ruleset).toEqual(vb);
    expect(d.focus).toEqual(focused);
    const applied = applyDelta(a, JSON.parse(JSON.stringify(d)));
    expect(applied?.ruleset).toEqual(vb);
    expect(applied?.focus).toEqual(focused);
    // Same content in new objects: nothing sent, the view keeps what it has.
    const c = liveState(3, JSON.parse(JSON.stringify(vb)), JSON.parse(JSON.stringify(focused)));
    const same = diffLiveState(b, c, 6);
    expect('ruleset' in same).toBe(false);
    expect('focus' in same).toBe(false);
    expect(applyDelta(applied!, same)?.focus).toEqual(focused);
  });

  it('a state from an older server has neither, and applying its deltas adds none', () => {
    const a = liveState(1, undefined, undefined);
    const b = liveState(2, undefined, undefined);
    const next = applyDelta(a, diffLiveState(a, b, 5));
    expect(next).not.toBeNull();
    expect('ruleset' in next!).toBe(false);
    expect('focus' in next!).toBe(false);
  });

  it('parseServerMessage refuses a malformed focus or ruleset and accepts the real ones', () => {
    const d = diffLiveState(liveState(1, dtp, none), liveState(2, vb, focused), 5);
    expect(parseServerMessage(JSON.stringify(d)).ok).toBe(true);
    expect(parseServerMessage(JSON.stringify({ ...d, focus: { unitId: 4, measure: null } }))).toMatchObject({ ok: false, message: expect.stringContaining('focus.unitId') });
    expect(parseServerMessage(JSON.stringify({ ...d, focus: { unitId: null, measure: { from: { xIn: 'a', yIn: 1, standId: null }, to: measure.to } } }))).toMatchObject({ ok: false, message: expect.stringContaining('focus.measure.from') });
    expect(parseServerMessage(JSON.stringify({ ...d, ruleset: { current: 'dtp', installed: [], rosterProblems: [] } }))).toMatchObject({ ok: false, message: expect.stringContaining('ruleset.current') });
    const snap = { type: 'snapshot', protocolVersion: 4, state: liveState(2, vb, focused), recentLog: [], sentTimeMs: 1 };
    expect(parseServerMessage(JSON.stringify(snap)).ok).toBe(true);
    expect(parseServerMessage(JSON.stringify({ ...snap, state: { ...snap.state, ruleset: { ...vb, installed: 'all' } } })).ok).toBe(false);
  });
});
