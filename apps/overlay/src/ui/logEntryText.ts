/** A log entry in players' words ("Dice (volley): 6 2 → 1 hit on 4+"), names from the state shown. */
import type { GameLogEntry, LiveState } from '@muster/protocol';
import { cardText } from './cardText.ts';
import { statusWords } from './statusWords.ts';
import { outcomeLine } from './outcomeWords.ts';

export function logEntryText(e: GameLogEntry, state: LiveState | null): string {
  const unitOf = (id: string) => state?.tableState.units.find((u) => u.id === id)?.name ?? id;
  const standText = (standId: string | null) => {
    const stand = standId ? state?.tableState.stands.find((s) => s.id === standId) : undefined;
    return stand ? `a stand of ${unitOf(stand.unitId)}` : standId ?? 'no stand';
  };
  switch (e.kind) {
    case 'card': return `Card: ${cardText(e.draw.card)}${e.draw.turnEnded ? ' — turn ends' : ''}`;
    case 'dice': return `Dice${e.roll.reason ? ` (${e.roll.reason})` : ''}: ${e.roll.faces.join(' ')} → ${e.roll.hits} hit${e.roll.hits === 1 ? '' : 's'} on ${e.roll.hitOn}+`;
    case 'unit-status': {
      const unit = state?.tableState.units.find((u) => u.id === e.unitId);
      const words = statusWords({ standIds: unit?.standIds ?? Object.keys(e.status.hitsByStand ?? {}), status: e.status });
      return `${unitOf(e.unitId)}: ${words.length ? words.join(', ') : 'status cleared'}`;
    }
    case 'terrain': return 'Terrain edited';
    case 'assign-tag': return `Tag ${e.markerId} given to ${standText(e.standId)}`;
    case 'turn': return `Turn ${e.turn} begins`;
    case 'note': return e.text;
    case 'pose': return `Moved ${standText(e.standId)}`;
    case 'stand-removed': return `Removed ${standText(e.standId)}`;
    case 'ruleset': return `Rule set: ${e.ruleset.name}${e.previousId ? ` (was ${state?.ruleset?.installed.find((r) => r.id === e.previousId)?.name ?? e.previousId})` : ''}`;
    case 'ruleset': return `Rule set now ${e.ruleset.name}`;
    case 'outcome': return `${e.dice === 'entered' ? 'Dice entered' : 'Rolled'}: ${outcomeLine(e.outcome)}`;
    case 'outcome-applied': return `Applied: ${Object.keys(e.statusByUnit).map(unitOf).join(', ')} (outcome ${e.outcomeIndex})`;
    case 'outcome-undone': return `Undone: outcome ${e.outcomeIndex} (${Object.keys(e.statusByUnit).map(unitOf).join(', ')} as before)`;
    case 'outcome-cleared': return `Outcome ${e.outcomeIndex} cleared`;
  }
}
