/**
 * The operator's rule-set chooser (protocol 4): the installed rule sets the service lists
 * (`LiveState.ruleset.installed`), the one in use, and a switch (`set-ruleset`: saved with the game,
 * logged, evaluated at once). What the army lacks for the chosen rule set is listed under it (the
 * service's roster problems), with how many of the evaluation's warnings name a missing parameter or
 * field, so the operator knows what to enter. Rebuilt only when the choice changes, so the list does not
 * close under the pointer.
 */
import type { LiveState, OperatorMessage, RulesetChoiceState } from '@muster/protocol';
import type { LiveConnection } from '../net/liveConnection.ts';
import type { LiveStore } from '../state/liveStore.ts';
import { h } from './bootstrap.ts';

/** Warnings of the evaluation that say a value is missing (a parameter, a unit field, a troop type). */
export function missingValueWarnings(state: LiveState | null): number {
  return (state?.evaluation?.warnings ?? []).filter((w) => w.code === 'parameter/missing' || /missing|no-troop-type|unknown/.test(w.code)).length;
}

export function rulesetChooser(store: LiveStore, connection: Pick<LiveConnection, 'sendAction'>): HTMLElement {
  const select = h('select', { id: 'ruleset-select', title: 'The rule set the game is played with' });
  select.setAttribute('aria-label', 'Rule set');
  const apply = h('button', { type: 'button', id: 'ruleset-apply', title: 'Play on with the chosen rule set (saved with the game and logged)' }, 'Use');
  const current = h('div', { className: 'hint', id: 'ruleset-current' });
  const result = h('div', { className: 'hint', id: 'ruleset-result', role: 'status' });
  const missingOut = h('div', { className: 'hint', id: 'ruleset-missing' });
  const problems = h('details', { id: 'ruleset-problems' });
  const section = h('section', { id: 'ruleset-chooser' }, h('h2', {}, 'Rule set'), h('div', { className: 'row' }, select, apply), current, problems, missingOut, result);
  let shown: RulesetChoiceState | undefined;
  let missing = -1;

  const render = (): void => {
    const state = store.snapshot.state;
    const choice = state?.ruleset;
    // An older service lists none: say so rather than offer a switch it would refuse.
    section.hidden = choice === undefined && state !== null;
    const missingNow = missingValueWarnings(state);
    if (choice === shown && missingNow === missing) return;
    missing = missingNow;
    if (choice !== shown) {
      shown = choice;
      const keep = select.value;
      select.replaceChildren(...(choice?.installed ?? []).map((r) => h('option', { value: r.id, title: r.source }, r.name)));
      select.value = choice?.current?.id ?? keep;
      current.textContent = choice?.current ? `In use: ${choice.current.name} (${choice.current.source})` : 'No rule set in use: the service runs without rules (see Warnings).';
      problems.hidden = !choice || choice.rosterProblems.length === 0;
      problems.replaceChildren(
        h('summary', {}, 'The army lacks values this rule set asks for'),
        h('ul', {}, ...(choice?.rosterProblems ?? []).map((p) => h('li', {}, p))),
      );
    }
    apply.disabled = !choice || select.value === choice.current?.id;
    missingOut.textContent = missingNow > 0 ? `${missingNow} warning${missingNow === 1 ? '' : 's'} name a missing value (see Warnings); the rest of the rules still run.` : '';
  };

  select.addEventListener('change', () => {
    apply.disabled = select.value === shown?.current?.id;
  });
  apply.addEventListener('click', () => {
    const rulesetId = select.value;
    const name = select.selectedOptions[0]?.textContent ?? rulesetId;
    apply.disabled = true;
    result.textContent = `Switching to ${name}…`;
    const action: OperatorMessage = { type: 'set-ruleset', rulesetId };
    void connection.sendAction(action).then((reply) => {
      if (reply.type === 'error') {
        result.textContent = `Not done: ${reply.message}`;
        result.classList.add('error');
        apply.disabled = false;
      } else {
        result.classList.remove('error');
        result.textContent = `Now playing ${name}.`;
      }
    });
  });
  store.subscribe(render);
  render();
  return section;
}
