/**
 * The evaluation's table-wide readings as panel DOM (sentences from tableWideText.ts, each followed by
 * its rulebook section): commanders with their orders per turn, and combined charges. Text nodes only,
 * through `h`.
 */
import type { CombinedChargeReading, Commander, CommanderReading, Evaluation } from '@muster/rules';
import { h } from '../pages/bootstrap.ts';
import { combinedChargeSentence, commanderSentence } from './tableWideText.ts';

type NameOf = (id: string) => string;

function line(className: string, text: string, source: string): HTMLElement {
  return h('div', { className }, text, ' ', h('span', { className: 'src' }, source));
}

/** One line per commander reading, in `commanders` order (the table's), for those with a reading. */
export function commanderLines(readings: Evaluation['commanders'], commanders: readonly Pick<Commander, 'id'>[], nameOf: NameOf): HTMLElement[] {
  if (!readings) return [];
  return commanders
    .map((c) => readings[c.id])
    .filter((r): r is CommanderReading => r !== undefined)
    .map((r) => {
      const el = line('commander-reading', commanderSentence(r, nameOf), r.source);
      el.dataset.commander = r.commanderId;
      return el;
    });
}

/** One line per combined charge, with its source. */
export function combinedChargeLines(charges: readonly CombinedChargeReading[], nameOf: NameOf): HTMLElement[] {
  return charges.map((c) => {
    const el = line('combined-charge', combinedChargeSentence(c, nameOf), c.source);
    el.dataset.target = `combined:${c.targetUnitId}`;
    return el;
  });
}

/**
 * The panel's Commanders section body: every commander's orders per turn, and every combined
 * charge on the table; a hint when the rule set reads neither.
 */
export function tableWideSection(ev: Evaluation | null, commanders: readonly Pick<Commander, 'id'>[], nameOf: NameOf): HTMLElement[] {
  const lines = [...commanderLines(ev?.commanders, commanders, nameOf), ...combinedChargeLines(ev?.combinedCharges ?? [], nameOf)];
  if (lines.length === 0) return [h('div', { className: 'hint' }, 'The rule set reads no commanders or combined charges here.')];
  return lines;
}
