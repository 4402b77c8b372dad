/**
 * Turn, last card and last roll (faces, hits marked) from the live state and the game log: the map's
 * strip, the operator's, and the stream overlay's lower third. Updated in place, only when they change.
 */
import type { GameLogEntry } from '@muster/protocol';
import type { LiveStore } from '../state/liveStore.ts';
import { cardText } from '../ui/cardText.ts';
import { outcomeLine } from '../ui/outcomeWords.ts';
import { shownOutcome } from '../ui/shownOutcome.ts';
import { h } from './bootstrap.ts';

const GLYPH = ['⚀', '⚁', '⚂', '⚃', '⚄', '⚅'];

export interface GameHudOptions {
  readonly className?: string;
  /** Units' names for the roll's reason line. */
  readonly show?: { readonly turn?: boolean; readonly card?: boolean; readonly roll?: boolean };
}

export function gameHud(parent: HTMLElement, store: LiveStore, options: GameHudOptions = {}): HTMLElement {
  const turn = h('span', { className: 'hud-turn' });
  const card = h('span', { className: 'hud-card' });
  const roll = h('span', { className: 'hud-roll' });
  // What the last roll did (after the roll, protocol 5), in players' words, until the operator clears it.
  const outcome = h('span', { className: 'hud-outcome' });
  // The rule set in play (protocol 4), so every view says which rules its shapes are from.
  const ruleset = h('span', { className: 'hud-ruleset hud-muted' });
  const show = { turn: true, card: true, roll: true, ...options.show };
  const box = h('div', { className: options.className ?? 'hud', role: 'status' }, show.turn ? turn : null, show.turn ? ruleset : null, show.card ? card : null, show.roll ? roll : null, show.roll ? outcome : null);
  box.setAttribute('aria-live', 'polite');
  parent.append(box);
  let key = '';
  const update = () => {
    const s = store.snapshot;
    const lastCard = findLast(s.log, 'card');
    const lastRoll = findLast(s.log, 'dice');
    const rulesetName = s.state?.ruleset?.current?.name ?? '';
    const shown = shownOutcome(s.log);
    const k = `${s.state?.turn}|${lastCard?.index}|${lastRoll?.index}|${rulesetName}|${shown?.entry.index}|${shown?.applied}`;
    if (k === key) return;
    key = k;
    turn.textContent = s.state ? `Turn ${s.state.turn}` : '';
    ruleset.textContent = rulesetName;
    card.textContent = lastCard ? `Card: ${cardText(lastCard.draw.card)}` : 'No card yet';
    card.title = lastCard ? `${lastCard.draw.remaining} cards left${lastCard.draw.turnEnded ? '; the turn ended' : ''}` : '';
    if (lastRoll) {
      const r = lastRoll.roll;
      const faces = r.faces.map((f) => h('span', { className: f >= r.hitOn ? 'die hit' : 'die', title: f >= r.hitOn ? `${f}: hit` : `${f}: miss` }, GLYPH[f - 1] ?? String(f)));
      roll.replaceChildren(
        ...(r.reason ? [h('span', { className: 'hud-reason' }, `${r.reason}: `)] : []),
        ...faces,
        h('b', {}, ` ${r.hits} hit${r.hits === 1 ? '' : 's'}`),
        h('span', { className: 'hud-muted' }, ` (${r.hitOn}+)`),
      );
    } else roll.replaceChildren();
    outcome.hidden = !shown;
    outcome.textContent = shown ? outcomeLine(shown.entry.outcome) : '';
    outcome.title = shown ? `${shown.applied ? 'Applied' : 'Not applied yet'}; ${shown.entry.outcome.steps.map((st) => `${st.text} [${st.source}]`).join('\n')}` : '';
    box.hidden = !s.state;
  };
  store.subscribe(update);
  update();
  return box;
}

function findLast<K extends GameLogEntry['kind']>(log: readonly GameLogEntry[], kind: K): Extract<GameLogEntry, { kind: K }> | undefined {
  for (let i = log.length - 1; i >= 0; i--) if (log[i]!.kind === kind) return log[i] as Extract<GameLogEntry, { kind: K }>;
  return undefined;
}
