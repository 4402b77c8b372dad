/**
 * Which table profile a roster's tags need. The dictionary is the table profile's, everywhere: `markers`
 * prints with it, `start --camera` and `track` detect with it. So an army whose ids run past the default
 * profile's 50-id dictionary must be printed and played with a profile that holds them; this finds the
 * shipped one that does (`calibration/tables/`, smallest dictionary first) and words the errors.
 */
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { loadTableProfile, type TableProfile } from '@muster/vision';
import { REPO_ROOT } from '../compose/liveOptions.ts';

export const TABLES_DIR = join(REPO_ROOT, 'calibration/tables');
export const DEFAULT_TABLE_PATH = join(TABLES_DIR, 'default-72x48.json');

/** The roster ids `profile` cannot detect as stands (outside its dictionary, or its anchors). */
export function tagsNotStands(profile: TableProfile, tagIds: readonly number[]): number[] {
  const stands = new Set(profile.standIds);
  return [...new Set(tagIds)].filter((id) => !stands.has(id)).sort((a, b) => a - b);
}

/** `50, 51, ..., 108` shortened for one line. */
export function idList(ids: readonly number[], most = 8): string {
  return `${ids.slice(0, most).join(', ')}${ids.length > most ? `, ... ${ids[ids.length - 1]}` : ''}`;
}

export interface ShippedTable {
  readonly path: string;
  readonly profile: TableProfile;
}

/** The profiles in `calibration/tables/`, smallest dictionary first (its codes are furthest apart). */
export function shippedTables(dir: string = TABLES_DIR): ShippedTable[] {
  const out: ShippedTable[] = [];
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.json')).sort()) {
    try {
      out.push({ path: join(dir, f), profile: loadTableProfile(join(dir, f)) });
    } catch {
      // A broken profile there is not this command's business; it is never offered.
    }
  }
  return out.sort((a, b) => a.profile.dictionaryIds - b.profile.dictionaryIds);
}

/** The first shipped profile that holds every tag, or undefined. */
export function shippedTableFor(tagIds: readonly number[], dir?: string): ShippedTable | undefined {
  return shippedTables(dir).find((t) => tagsNotStands(t.profile, tagIds).length === 0);
}

/** A path as the user would type it: relative to the working directory when inside it. */
export function shownPath(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel !== '' && !rel.startsWith('..') ? rel : path;
}

/** One actionable line: which of the roster's tags `profile` cannot hold, and a shipped profile that holds them all. */
export function rosterDoesNotFit(rosterPath: string, tablePath: string, profile: TableProfile, rosterIds: readonly number[]): string {
  const missing = tagsNotStands(profile, rosterIds);
  const fit = shippedTableFor(rosterIds);
  const anchorClash = missing.filter((id) => profile.anchors.some((a) => a.id === id));
  return (
    `${rosterPath}: tag${missing.length > 1 ? 's' : ''} ${idList(missing)} cannot be stands on ${tablePath} ` +
    `(${profile.dictionary}, ids 0-${profile.dictionaryIds - 1}, anchors ${profile.anchors.map((a) => a.id).join(', ')})` +
    (anchorClash.length > 0 ? `; ${idList(anchorClash)} ${anchorClash.length > 1 ? 'are anchors' : 'is an anchor'}` : '') +
    (fit && fit.path !== tablePath
      ? `; use --table ${shownPath(fit.path)} (${fit.profile.dictionary}), or a profile of yours with a dictionary that large`
      : '; use --table with a profile whose dictionary holds them')
  );
}
