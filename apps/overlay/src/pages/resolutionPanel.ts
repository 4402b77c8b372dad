/**
 * The operator's "After the roll" box: for the selected unit, the actions it may roll for (from the rule
 * set's `resolution`, asked with `resolve-offer`), each with its dice (d6/d10, how many, read how); "Roll"
 * rolls them with the service's seeded roller, "Enter dice" sends the faces the players rolled. The outcome
 * (the newest in the log, as every view shows it) in players' words with its dice, steps and sections, what
 * happens to each unit, the checks to roll next; "Apply" makes its status changes in one logged step (Undo
 * takes it back), "Clear" stops showing it. Generic over the rule set: it names none.
 */
import type { AckMessage, ErrorMessage, LoggedOutcome, OfferedAction, OperatorMessage, ResolutionOffer } from '@muster/protocol';
import type { DiceFaces, DiceRequest, Outcome, PendingAction } from '@muster/rules';
import type { LiveStore } from '../state/liveStore.ts';
import { outcomeLine, rollLine } from '../ui/outcomeWords.ts';
import { shownOutcome, type ShownOutcome } from '../ui/shownOutcome.ts';
import { h } from './bootstrap.ts';

export interface ResolutionPanelOptions {
  readonly store: LiveStore;
  send(action: OperatorMessage): Promise<AckMessage | ErrorMessage>;
  say(text: string, error?: boolean): void;
  /** Registers what takes an apply back, for the page's Undo. */
  pushUndo(label: string, restore: OperatorMessage): void;
}

export interface ResolutionPanel {
  readonly element: HTMLElement;
  /** Shows what `unitId` may roll for (asked of the service when the unit changes). */
  follow(unitId: string | null): void;
}

/** "5 d6, hits on 4+", "1 d10 +2", "2 d6, passes on 4 or less". */
export function diceText(r: DiceRequest): string {
  const how =
    r.reading === 'hits' ? `, hits on ${r.hitOn ?? 4}+`
    : r.reading === 'under' ? `, passes on ${r.target ?? 0} or less`
    : r.modifier ? ` ${r.modifier > 0 ? '+' : '−'}${Math.abs(r.modifier)}`
    : '';
  return `${r.count} d${r.sides}${how}`;
}

/** "6 2 4", "6,2,4" → faces; undefined when something is not a whole number. */
export function parseFaces(text: string): number[] | undefined {
  const parts = text.split(/[\s,]+/).filter((p) => p !== '');
  const faces = parts.map(Number);
  return faces.every((f) => Number.isInteger(f)) ? faces : undefined;
}

export function resolutionPanel(options: ResolutionPanelOptions): ResolutionPanel {
  const { store, send, say } = options;
  const diceKind = h('div', { className: 'hint dice-kind' });
  const actionsBox = h('div', { className: 'roll-actions' });
  actionsBox.id = 'roll-actions';
  const enterBox = h('div', { className: 'enter-dice', hidden: true });
  enterBox.id = 'enter-dice';
  const outcomeBox = h('div', { className: 'outcome' });
  outcomeBox.id = 'outcome';
  const refresh = h('button', { type: 'button', title: 'Ask again what the unit may roll for' }, 'Refresh');
  const element = h('section', {}, h('h2', {}, 'After the roll'), h('div', { className: 'row' }, diceKind, refresh), actionsBox, enterBox, outcomeBox);
  element.id = 'after-the-roll';

  /** The unit asked about; undefined before the first (so the first follow asks, even for none). */
  let unitId: string | null | undefined;
  let offer: ResolutionOffer | null = null;
  let asked = 0;

  async function ask(): Promise<void> {
    const id = unitId ?? null;
    const mine = ++asked;
    enterBox.hidden = true;
    if (id === null) {
      offer = null;
      diceKind.textContent = '';
      actionsBox.replaceChildren(h('p', { className: 'hint' }, 'Select a unit to see what it may roll for.'));
      return;
    }
    const reply = await send({ type: 'resolve-offer', unitId: id });
    if (mine !== asked) return; // the selection moved on meanwhile
    if (reply.type === 'error') {
      offer = null;
      diceKind.textContent = '';
      actionsBox.replaceChildren(h('p', { className: 'refusal' }, reply.message));
      return;
    }
    offer = reply.result && 'offer' in reply.result ? reply.result.offer : null;
    if (!offer) actionsBox.replaceChildren(h('p', { className: 'refusal' }, 'This service does not say what a unit may roll for (an older or a replaying service).'));
    renderOffer();
  }
  refresh.addEventListener('click', () => void ask());

  function renderOffer(): void {
    if (!offer) return;
    diceKind.textContent = `Dice: d${offer.dice.sides} · ${offer.dice.styles.join(' / ')}`;
    diceKind.title = offer.dice.source;
    if (offer.actions.length === 0) {
      actionsBox.replaceChildren(h('p', { className: 'hint' }, 'Nothing to roll for now.'));
      return;
    }
    actionsBox.replaceChildren(...offer.actions.map(actionRow));
  }

  function actionRow(offered: OfferedAction): HTMLElement {
    const row = h('div', { className: 'roll-action' });
    row.dataset.kind = offered.action.kind;
    if (offered.action.targetUnitId) row.dataset.target = offered.action.targetUnitId;
    if (!offered.dice) {
      row.append(h('span', {}, offered.label), ' ', h('span', { className: 'refusal' }, offered.refusal ? `${offered.refusal.reason}${offered.refusal.detail ? `: ${offered.refusal.detail}` : ''}` : 'cannot be rolled'));
      return row;
    }
    const dice = offered.dice;
    if (dice.length === 0 || dice.every((r) => r.count === 0)) {
      // No dice to roll (a reform, hits placed after simultaneous fire): the outcome only.
      const go = h('button', { type: 'button', className: 'roll', title: 'No dice: see what it does (logged)' }, 'Resolve');
      go.setAttribute('aria-label', `Resolve: ${offered.label}`);
      go.addEventListener('click', () => void resolve(offered.action, offered.label, Object.fromEntries(dice.map((r) => [r.id, []]))));
      row.append(h('span', {}, offered.label), ' ', h('span', { className: 'hint' }, 'no dice'), ' ', go);
      return row;
    }
    const rollButton = h('button', { type: 'button', className: 'roll', title: "Roll with the service's seeded roller (logged)" }, 'Roll');
    const enterButton = h('button', { type: 'button', className: 'enter', title: 'Type the faces the players rolled' }, 'Enter dice');
    // Named for their action, so they are told apart from each other and from the Game box's Roll.
    rollButton.setAttribute('aria-label', `Roll: ${offered.label}`);
    enterButton.setAttribute('aria-label', `Enter dice: ${offered.label}`);
    rollButton.addEventListener('click', () => void resolve(offered.action, offered.label));
    enterButton.addEventListener('click', () => openEnter(offered.action, offered.label, dice));
    row.append(
      h('span', {}, offered.label),
      ' ',
      h('span', { className: 'dice' }, dice.map((r) => diceText(r)).join(' vs ')),
      ' ',
      rollButton,
      enterButton,
    );
    row.title = dice.map((r) => `${r.label} [${r.source}]`).join('\n');
    return row;
  }

  function openEnter(action: PendingAction, label: string, requests: readonly DiceRequest[]): void {
    const inputs = requests.map((r) => {
      const input = h('input', { type: 'text', placeholder: `${r.count} d${r.sides}, e.g. ${Array.from({ length: Math.min(r.count, 3) }, (_, i) => i + 2).join(' ')}`, style: 'width: 12em' });
      input.dataset.group = r.id;
      return { request: r, input };
    });
    const error = h('div', { className: 'refusal enter-error' });
    const go = h('button', { type: 'button', className: 'resolve' }, 'Resolve');
    const cancel = h('button', { type: 'button' }, 'Cancel');
    cancel.setAttribute('aria-label', 'Cancel entering dice');
    cancel.addEventListener('click', () => (enterBox.hidden = true));
    go.addEventListener('click', async () => {
      const faces: Record<string, number[]> = {};
      for (const { request, input } of inputs) {
        const parsed = parseFaces(input.value);
        if (!parsed) {
          error.textContent = `${request.label}: type the faces as numbers, e.g. 6 2 4`;
          return;
        }
        faces[request.id] = parsed;
      }
      const problem = await resolve(action, label, faces);
      error.textContent = problem ?? '';
      if (!problem) enterBox.hidden = true;
    });
    enterBox.replaceChildren(
      h('div', {}, `Enter dice: ${label}`),
      ...inputs.map(({ request, input }) => h('label', { className: 'row' }, `${request.label} (${diceText(request)}) `, input)),
      h('div', { className: 'row' }, go, cancel),
      error,
    );
    enterBox.hidden = false;
    inputs[0]?.input.focus();
  }

  /** Rolls (or sends the faces of) an action; the error's text when the service refused it. */
  async function resolve(action: PendingAction, label: string, faces?: DiceFaces): Promise<string | null> {
    const reply = await send({ type: 'resolve-roll', action, ...(faces ? { faces } : {}) });
    if (reply.type === 'error') {
      say(`Not resolved (${label}): ${reply.message}`, true);
      return reply.message;
    }
    const logged: LoggedOutcome | undefined = reply.result && 'outcome' in reply.result ? reply.result.outcome : undefined;
    if (logged) say(`${label}: ${outcomeLine(logged.outcome)}`);
    return null;
  }

  // ---- the outcome, as the log has it ----------------------------------------------------------------
  let renderedKey = '';
  function renderOutcome(): void {
    const shown = shownOutcome(store.snapshot.log);
    const key = shown ? `${shown.entry.index}|${shown.applied}` : '';
    if (key === renderedKey) return;
    renderedKey = key;
    outcomeBox.replaceChildren(...(shown ? outcomeParts(shown) : []));
  }

  function outcomeParts(shown: ShownOutcome): Node[] {
    const o: Outcome = shown.entry.outcome;
    const index = shown.entry.index;
    const nameOf = (id: string) => store.snapshot.state?.tableState.units.find((u) => u.id === id)?.name ?? id;
    const hasStatus = o.effects.some((e) => e.unitId && e.status);
    const apply = h('button', { type: 'button', title: 'Make every status change of this outcome in one step (Undo takes it back)' }, shown.applied ? 'Applied' : 'Apply');
    apply.id = 'apply-outcome';
    apply.disabled = shown.applied || !hasStatus;
    if (!hasStatus) apply.title = 'No status to change: stands lost and moves are made by hand';
    apply.addEventListener('click', async () => {
      apply.disabled = true;
      const reply = await send({ type: 'apply-outcome', outcomeIndex: index });
      if (reply.type === 'error') {
        apply.disabled = false;
        say(`Not applied: ${reply.message}`, true);
        return;
      }
      options.pushUndo(`apply ${o.result}`, { type: 'undo-outcome', outcomeIndex: index });
      say(`Applied: ${outcomeLine(o)}`);
    });
    const clear = h('button', { type: 'button', title: 'Stop showing this outcome (its moves leave the projector)' }, 'Clear');
    clear.id = 'clear-outcome';
    clear.addEventListener('click', async () => {
      const reply = await send({ type: 'clear-outcome', outcomeIndex: index });
      if (reply.type === 'error') say(`Not cleared: ${reply.message}`, true);
    });
    const parts: Node[] = [
      h('div', { className: 'outcome-result' }, h('b', {}, o.result), shown.entry.dice === 'entered' ? h('span', { className: 'src' }, ' · dice entered') : h('span', { className: 'src' }, ' · rolled')),
      h('div', { className: 'outcome-summary' }, outcomeLine(o)),
      ...o.rolls.map((r) => h('div', { className: 'outcome-roll' }, rollLine(r))),
    ];
    if (o.steps.length) parts.push(h('ol', { className: 'outcome-steps' }, ...o.steps.map((st) => h('li', {}, `${st.text} `, h('span', { className: 'src' }, st.source)))));
    if (o.effects.length) {
      parts.push(h('ul', { className: 'outcome-effects' }, ...o.effects.map((e) => {
        const who = e.unitId ? nameOf(e.unitId) : e.commanderId ?? '';
        const extra = [
          e.standsLost ? `${e.standsLost} stand${e.standsLost === 1 ? '' : 's'} lost${e.standIds?.length ? ` (${e.standIds.join(', ')})` : ''}` : '',
          e.removed ? 'leaves play' : '',
          e.move ? `${e.move.kind} ${e.move.distanceIn.toFixed(1)}"${e.move.leavesTable ? ', off the table' : ''}` : '',
        ].filter((x) => x !== '');
        // A rule set's text may already start with the unit's name.
        const text = who && e.text.startsWith(`${who}: `) ? e.text.slice(who.length + 2) : e.text;
        return h('li', {}, h('b', {}, who), `: ${text}${extra.length ? ` — ${extra.join('; ')}` : ''} `, h('span', { className: 'src' }, e.source));
      })));
    }
    if (o.followUps.length) {
      // The checks to roll next, each with its dice (asked of the service) and Roll / Enter dice like an offer.
      const followUps = h('div', { className: 'follow-ups' }, h('div', { className: 'hint' }, 'To roll next:'));
      followUps.id = 'follow-ups';
      parts.push(followUps);
      const about = o.followUps[0]!.unitId ?? o.action.unitId ?? unitId ?? '';
      void send({ type: 'resolve-offer', unitId: about, actions: o.followUps }).then((reply) => {
        if (reply.type === 'error') {
          followUps.append(h('div', { className: 'refusal' }, reply.message));
          return;
        }
        const listed = reply.result && 'offer' in reply.result ? reply.result.offer.actions : [];
        followUps.append(...listed.map((a) => {
          const row = actionRow(a);
          row.classList.add('follow-up');
          return row;
        }));
      });
    }
    parts.push(h('div', { className: 'row' }, apply, clear, h('span', { className: 'hint' }, shown.applied ? 'Status changes made (Undo takes them back).' : '')));
    return parts;
  }

  store.subscribe(renderOutcome);
  renderOutcome();

  return {
    element,
    follow(next: string | null): void {
      // Asked once per selection (the page calls this on every update); Refresh asks again.
      if (next === unitId) return;
      unitId = next;
      void ask();
    },
  };
}
