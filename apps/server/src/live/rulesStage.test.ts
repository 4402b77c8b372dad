/**
 * The rules stage's live switch inline (the worker path is covered end to end by
 * tests/service/rulesetSwitch.test.ts): the next evaluation is the new rule set's, with its own id.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { getRuleset, parseTableState } from '@muster/rules';
import { createRulesStage } from './rulesStage.ts';

const state = parseTableState(JSON.parse(readFileSync(new URL('../../../../fixtures/rules/in/charge.json', import.meta.url), 'utf8')));

describe('createRulesStage switchTo', () => {
  it('inline: evaluates with the new rule set from the next state on, fresh session, no leftover error', () => {
    const stage = createRulesStage({ ruleset: getRuleset('devil-to-pay'), now: () => 0, onResult: () => {} });
    expect(stage.onWorker).toBe(false);
    expect(stage.evaluate(state, null)?.rulesetId).toBe('devil-to-pay');
    stage.switchTo(getRuleset('volley-and-bayonet'));
    expect(stage.ruleset()?.id).toBe('volley-and-bayonet');
    const ev = stage.evaluate(state, null);
    expect(ev?.rulesetId).toBe('volley-and-bayonet');
    expect(stage.evaluatedState(null, { seq: 5, frameSeq: 4, captureTimeMs: 1 })).toEqual({ seq: 5, frameSeq: 4, captureTimeMs: 1 });
    expect(stage.warnings(0)).toEqual([]);
    stage.close();
  });

  it('a stage started without rules switches onto one', () => {
    const stage = createRulesStage({ ruleset: null, rulesUnavailableReason: 'no rules: unknown ruleset "x"', now: () => 0, onResult: () => {} });
    expect(stage.evaluate(state, null)).toBeNull();
    expect(stage.warnings(0)).toEqual(['no rules: unknown ruleset "x"']);
    stage.switchTo(getRuleset('fire-and-fury-regimental'));
    expect(stage.evaluate(state, null)?.rulesetId).toBe('fire-and-fury-regimental');
    expect(stage.warnings(0)).toEqual([]);
    stage.close();
  });
});
