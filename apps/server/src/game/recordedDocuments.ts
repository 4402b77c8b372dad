/**
 * The log is the game's record: a saved document the log says must exist may not be missing. Without
 * this check a missing (or dangling) game.json started the game over at turn 1, statuses cleared and the
 * deck reshuffled, with health `ok`; a missing tag-bindings.json dropped the markers bound at the table.
 * Neither can be rebuilt faithfully from the log's newest entries (the deck's order and the roller's
 * state are not logged at all), so the start refuses, naming the file, what the log holds and how to go
 * on. (terrain.json can be: each terrain entry holds the whole terrain, and the session saves it again.)
 */
import type { GameLogEntry } from '@muster/protocol';
import { PersistError, regularFileOrNothing, type DataStore, type DocumentName } from '../persist/dataStore.ts';
import type { GameLog } from '../persist/gameLog.ts';

/** Each document the game saves, and the log entries that say it was saved (any entry, for game.json). */
const RECORDED_BY: readonly { readonly name: DocumentName; readonly kind: GameLogEntry['kind'] | null; readonly what: string }[] = [
  { name: 'game', kind: null, what: 'the turn, the unit statuses set by hand, the action deck and the dice roller' },
  { name: 'tag-bindings', kind: 'assign-tag', what: 'the markers bound to stands at the table' },
];

/** Throws `PersistError` when a document the log shows was saved is missing (a dangling link is refused by `regularFileOrNothing`). */
export function refuseMissingRecordedDocuments(store: DataStore, log: GameLog<GameLogEntry>): void {
  if (log.count() === 0) return;
  for (const doc of RECORDED_BY) {
    const file = store.path(doc.name);
    if (regularFileOrNothing(file) !== null) continue;
    if (doc.kind !== null && log.lastOfKind(doc.kind) === undefined) continue;
    const last = log.newest(1, () => true)[0];
    const logged = doc.kind === null ? `${log.count()} entries of a game${last ? ` (the last on turn ${last.turn})` : ''}` : `"${doc.kind}" entries`;
    throw new PersistError(
      `${file} is missing, but the game log ${log.file} holds ${logged}: it keeps ${doc.what}, and starting without it would lose that in silence. ` +
        `Nothing was changed. Restore ${file} (from a backup, or the file a link pointed to); to start a new game on this data directory instead, ` +
        `move the old record aside first (mv "${log.file}" "${log.file}.old").`,
    );
  }
}
