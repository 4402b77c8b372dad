/**
 * The DOM half of the rule set's own status fields (rulesetStatusFields.ts builds and reads them): one
 * labelled input per declared field; a change is checked against the declaration, and a value that does
 * not fit is refused there with the reason, nothing sent. Text nodes only, through `h`.
 */
import type { RulesetFieldSpec, RulesetValue, RulesetValues } from '@muster/rules';
import { h } from '../pages/bootstrap.ts';
import { readStatusInput, statusInputs, type StatusInput } from './rulesetStatusFields.ts';

export interface RulesetStatusEditorOptions {
  readonly specs: readonly RulesetFieldSpec[];
  readonly status: RulesetValues | undefined;
  /** A checked change: the field and its new value (undefined: taken off). */
  readonly onChange: (spec: RulesetFieldSpec, value: RulesetValue | undefined) => void;
  /** A value that does not fit: the reason, for people. */
  readonly onProblem: (message: string) => void;
}

/** The inputs in a box (`#ruleset-status`), or null when the rule set declares no status fields. */
export function rulesetStatusEditor(o: RulesetStatusEditorOptions): HTMLElement | null {
  if (o.specs.length === 0) return null;
  const box = h('div', { className: 'ruleset-status' });
  box.id = 'ruleset-status';
  for (const input of statusInputs(o.specs, o.status)) box.append(row(input, o));
  return box;
}

function row(input: StatusInput, o: RulesetStatusEditorOptions): HTMLElement {
  const { spec } = input;
  const send = (raw: boolean | string | readonly string[], el: HTMLElement) => {
    const read = readStatusInput(spec, raw);
    el.classList.toggle('invalid', !read.ok);
    if (!read.ok) return o.onProblem(read.message);
    o.onChange(spec, read.value);
  };
  let control: HTMLElement;
  switch (input.kind) {
    case 'checkbox': {
      const box = h('input', { type: 'checkbox', checked: input.shown === true });
      box.addEventListener('change', () => send(box.checked, box));
      control = h('label', { title: input.title }, box, ` ${input.label}`);
      box.dataset.field = spec.id;
      break;
    }
    case 'select': {
      const sel = h('select', { title: input.title });
      for (const opt of input.options) sel.append(h('option', { value: opt.value, selected: opt.value === input.shown }, opt.label));
      sel.addEventListener('change', () => send(sel.value, sel));
      sel.dataset.field = spec.id;
      control = h('label', { title: input.title }, `${input.label} `, sel);
      break;
    }
    case 'number': {
      const num = h('input', { type: 'number', value: String(input.shown), step: input.step ?? 'any', placeholder: spec.default === undefined ? '–' : String(spec.default), title: input.title, style: 'width: 5em' });
      if (input.min !== undefined) num.min = String(input.min);
      if (input.max !== undefined) num.max = String(input.max);
      num.addEventListener('change', () => send(num.value, num));
      num.dataset.field = spec.id;
      control = h('label', { title: input.title }, `${input.label} `, num);
      break;
    }
    case 'checkboxes': {
      const boxes = input.options.map((opt) => {
        const b = h('input', { type: 'checkbox', value: opt.value, checked: (input.shown as readonly string[]).includes(opt.value) });
        return { b, label: h('label', {}, b, ` ${opt.label}`) };
      });
      const all = h('span', { title: input.title }, `${input.label}: `, ...boxes.map((x) => x.label));
      all.dataset.field = spec.id;
      for (const { b } of boxes) b.addEventListener('change', () => send(boxes.filter((x) => x.b.checked).map((x) => x.b.value), all));
      control = all;
      break;
    }
  }
  const div = h('div', { className: 'row ruleset-field' }, control);
  div.dataset.field = spec.id;
  return div;
}
