/**
 * One conformance suite for every installed rule set (issue 9, "One conformance suite"): the same
 * questions about the same kinds of scenes. A moved, quarter-turned or half-turned table gives the same
 * decisions; no answer depends on the order of units, stands, commanders or terrain; a bad parameter is a
 * TableStateError naming its path; evaluation is pure; shapes have stable ids, known layers and styles and
 * finite coordinates; refusals are coded '<area>/<code>'; every dice modifier names its source; a missing
 * parameter is a 'parameter/missing' warning naming a declared parameter.
 *
 * Scenes come from ./scenes.ts. A question a rule set does not pass yet is listed in KNOWN_GAPS with why;
 * the suite then checks that it really still fails, so a fixed gap must be taken off the list.
 */
import { describe, expect, it } from 'vitest';
import { deepFreeze, LAYERS, nonFinite, STYLES } from '../evaluationChecks.ts';
import {
  installedRulesets,
  parseTableStateFor,
  TableStateError,
  type Evaluation,
  type Ruleset,
  type RulesetFieldSpec,
  type TableState,
} from '@muster/rules';
import { CONFORMANCE_SCENES, type ConformanceScene } from './scenes.ts';
import { decisions, warningCodes } from './decisions.ts';
import { halfTurned, quarterTurned, reordered, shifted } from './tableTransforms.ts';

/**
 * Questions a rule set fails today, keyed `<ruleset id>|<scene>|<question>`, with the reason. Rule-set code
 * belongs to its own helpers; the gap is reported, and the suite asserts it still fails.
 */
const KNOWN_GAPS: Readonly<Record<string, string>> = {};

const REASON = /^[a-z]+(-[a-z]+)*\/[a-z0-9]+(-[a-z0-9]+)*$/;


/** Every object inside a value (itself included) that satisfies `keep`, with its path. */
function collect(x: unknown, keep: (o: Record<string, unknown>) => boolean, path = ''): { path: string; o: Record<string, unknown> }[] {
  if (typeof x !== 'object' || x === null) return [];
  const o = x as Record<string, unknown>;
  const own = !Array.isArray(x) && keep(o) ? [{ path, o }] : [];
  return [...own, ...Object.entries(o).flatMap(([k, v]) => collect(v, keep, `${path}.${k}`))];
}

/** Run a question; if it is a known gap, assert it still fails instead. */
function ask(key: string, question: () => void): void {
  const gap = KNOWN_GAPS[key];
  if (gap === undefined) {
    question();
    return;
  }
  expect(question, `KNOWN_GAPS["${key}"] (${gap}) now passes: take it off the list`).toThrow();
}

/** The first problem of a state the rule set must reject, or a failure when it is accepted. */
function rejection(json: unknown, ruleset: Ruleset): TableStateError {
  try {
    parseTableStateFor(json, ruleset);
  } catch (e) {
    expect(e).toBeInstanceOf(TableStateError);
    return e as TableStateError;
  }
  throw new Error('accepted a state it should reject');
}

function scenesOf(ruleset: Ruleset): readonly ConformanceScene[] {
  return CONFORMANCE_SCENES[ruleset.id]?.() ?? [];
}

describe('conformance scene registry', () => {
  it.each(installedRulesets.map((r) => [r.id] as const))('has scenes for %s', (id) => {
    expect(CONFORMANCE_SCENES[id], `add scenes for "${id}" in tests/rules/conformance/scenes.ts`).toBeDefined();
    expect(scenesOf(installedRulesets.find((r) => r.id === id)!).length).toBeGreaterThan(0);
  });

  it('lists only installed rule sets and real scenes in KNOWN_GAPS', () => {
    for (const key of Object.keys(KNOWN_GAPS)) {
      const [id, scene] = key.split('|');
      const rs = installedRulesets.find((r) => r.id === id);
      expect(rs, key).toBeDefined();
      if (scene !== '*') expect(scenesOf(rs!).map((s) => s.name), key).toContain(scene);
    }
  });
});

const sceneCases = installedRulesets.flatMap((rs) => scenesOf(rs).map((s) => [rs.id, s.name] as const));

describe.each(sceneCases)('%s on %s', (rulesetId, sceneName) => {
  const ruleset = installedRulesets.find((r) => r.id === rulesetId)!;
  const scene = scenesOf(ruleset).find((s) => s.name === sceneName)!;
  const key = (q: string): string => `${rulesetId}|${sceneName}|${q}`;
  const evalOf = (s: TableState): Evaluation => ruleset.evaluate(parseTableStateFor(s, ruleset));
  const base = (): Evaluation => evalOf(scene.build());

  it('is a valid state for its rule set', () => {
    expect(() => parseTableStateFor(scene.build(), ruleset)).not.toThrow();
  });

  it('gives the same decisions on a shifted table', () => {
    ask(key('shift'), () => expect(decisions(evalOf(shifted(scene.build(), 13.25, 7.5)))).toEqual(decisions(base())));
  });

  it('gives the same decisions on a table turned a quarter (width and depth swapped)', () => {
    ask(key('quarter-turn'), () => expect(decisions(evalOf(quarterTurned(scene.build())))).toEqual(decisions(base())));
  });

  it('gives the same decisions on a table turned half round', () => {
    ask(key('half-turn'), () => expect(decisions(evalOf(halfTurned(scene.build())))).toEqual(decisions(base())));
  });

  it('gives the same decisions with units, stands, commanders and terrain listed backwards', () => {
    ask(key('reorder'), () => expect(decisions(evalOf(reordered(scene.build())))).toEqual(decisions(base())));
  });

  it('gives the same warnings (code, unit, parameter) with everything listed backwards', () => {
    ask(key('reorder-warnings'), () => expect(warningCodes(evalOf(reordered(scene.build())))).toEqual(warningCodes(base())));
  });

  it('is pure: a deep-frozen state is left alone and the same state gives a deep-equal evaluation', () => {
    ask(key('pure'), () => {
      const before = JSON.stringify(scene.build());
      const frozen = deepFreeze(scene.build());
      const a = ruleset.evaluate(frozen);
      const b = ruleset.evaluate(frozen);
      expect(b).toEqual(a);
      expect(JSON.stringify(frozen)).toBe(before);
      expect(ruleset.evaluate(scene.build())).toEqual(a);
    });
  });

  it('draws shapes with unique ids that stay put when the table moves, known layers and styles, finite coordinates', () => {
    ask(key('shapes'), () => {
      const ev = base();
      const ids = ev.shapes.map((s) => s.id);
      expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
      for (const s of ev.shapes) {
        expect(typeof s.id === 'string' && s.id.length > 0, `shape id ${String(s.id)}`).toBe(true);
        expect(LAYERS, s.id).toContain(s.layer);
        expect(STYLES, s.id).toContain(s.style);
      }
      expect(nonFinite(ev.shapes)).toEqual([]);
      const movedIds = evalOf(shifted(scene.build(), 13.25, 7.5)).shapes.map((s) => s.id).sort();
      expect(movedIds).toEqual([...ids].sort());
    });
  });

  it("gives every refusal an '<area>/<code>' reason and every dice modifier a source", () => {
    ask(key('codes'), () => {
      const ev = base();
      const refusals = collect(ev.units, (o) => o.ok === false);
      for (const r of refusals) expect(r.o.reason, r.path).toMatch(REASON);
      const breakdowns = collect(ev.units, (o) => Array.isArray(o.modifiers) && Array.isArray(o.limits));
      for (const b of breakdowns) {
        for (const [i, m] of [...(b.o.modifiers as unknown[]), ...(b.o.limits as unknown[])].entries()) {
          const source = (m as { source?: unknown }).source;
          expect(typeof source === 'string' && source.trim().length > 0, `${b.path} modifier ${i} has no source`).toBe(true);
        }
      }
    });
  });

  it("warns 'parameter/missing' naming a declared parameter when its parameters are taken away", () => {
    ask(key('missing-parameters'), () => {
      const { rulesetParameters: _dropped, ...bare } = scene.build();
      const ev = evalOf(bare);
      const declared = new Set((ruleset.parameters ?? []).map((p) => p.id));
      const missing = ev.warnings.filter((w) => w.code === 'parameter/missing');
      for (const w of missing) expect(declared.has(w.parameterId ?? ''), `warning names "${w.parameterId}"`).toBe(true);
      // A rule set with parameters the document does not give must say so when the scene used any of them.
      const usedGivenParameters = Object.keys(scene.build().rulesetParameters ?? {}).some(
        (id) => (ruleset.parameters ?? []).find((p) => p.id === id)?.default === undefined,
      );
      if (usedGivenParameters) expect(missing.length).toBeGreaterThan(0);
    });
  });
});

/** A wrong-typed value for a parameter spec. */
function wrongType(spec: RulesetFieldSpec): unknown {
  return spec.type === 'number' || spec.type === 'integer' ? 'seven' : 7;
}

describe.each(installedRulesets.filter((r) => scenesOf(r).length > 0).map((r) => [r.id] as const))('%s rejects bad parameters', (rulesetId) => {
  const ruleset = installedRulesets.find((r) => r.id === rulesetId)!;
  const scene = scenesOf(ruleset)[0]!;
  const withParam = (id: string, value: unknown): unknown => {
    const s = scene.build();
    return { ...s, rulesetParameters: { ...(s.rulesetParameters ?? {}), [id]: value } };
  };

  it('an unknown parameter id, naming the path and the allowed ids', () => {
    ask(`${rulesetId}|*|bad-parameter-unknown`, () => {
      const err = rejection(withParam('no-such-parameter', 1), ruleset);
      expect(err.problems.map((p) => p.path)).toContain('rulesetParameters.no-such-parameter');
      expect(err.message).toContain('rulesetParameters.no-such-parameter');
      expect(err.message).toContain(`"${ruleset.id}"`);
    });
  });

  const params = ruleset.parameters ?? [];
  // Every declared parameter, not a sample: a wrong type is refused for each.
  if (params.length > 0) {
    it.each(params.map((p) => [p.id, p] as const))('a wrong-typed value for %s', (id, spec) => {
      ask(`${rulesetId}|*|bad-parameter-type`, () => {
        const err = rejection(withParam(id, wrongType(spec)), ruleset);
        expect(err.problems.map((p) => p.path)).toEqual([`rulesetParameters.${id}`]);
        expect(err.message).toContain(`rulesetParameters.${id}`);
      });
    });
  }

  const bounded = params.filter((p) => (p.type === 'number' || p.type === 'integer') && (p.min !== undefined || p.max !== undefined));
  if (bounded.length > 0) {
    it.each(bounded.map((p) => [p.id, p] as const))('an out-of-range value for %s', (id, spec) => {
      ask(`${rulesetId}|*|bad-parameter-range`, () => {
        const value = spec.min !== undefined ? spec.min - 1 : spec.max! + 1;
        const err = rejection(withParam(id, value), ruleset);
        expect(err.problems.map((p) => p.path)).toEqual([`rulesetParameters.${id}`]);
        expect(err.message).toMatch(/expected at (least|most)/);
      });
    });
  }
});
