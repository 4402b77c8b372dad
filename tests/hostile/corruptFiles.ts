/**
 * Saved files a crash, a disk or a hand edit can leave in a data directory, and what a start must make of
 * each: refuse with the file and the field named (and the file left as it was), or start. Shared by
 * tests/hostile/savedFiles.test.ts and `npm run bench -- hostile`.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRng } from '@muster/rules';
import { startDemo, tempDir } from '../service/helpers.ts';

export interface CorruptFileCase {
  readonly name: string;
  /** File under the demo's data directory (`<data>/demo/`). */
  readonly file: string;
  /** What the file holds: bytes, text, a JSON value, or a function of the valid game.json a fresh demo writes. */
  readonly content: string | Uint8Array | object | ((validGame: Record<string, unknown>) => unknown);
  /** The start's error must match; null: the start must succeed. */
  readonly refusal: RegExp | null;
}

const randomBytes = (n: number, seed: number): Uint8Array => {
  const rng = createRng(seed);
  return Uint8Array.from({ length: n }, () => rng.nextInt(256));
};

export const CORRUPT_FILE_CASES: readonly CorruptFileCase[] = [
  { name: 'game.json: random bytes', file: 'game.json', content: randomBytes(4096, 1), refusal: /game\.json: not valid JSON .*fix or remove it/ },
  { name: 'game.json: cut off half-way', file: 'game.json', content: (g) => JSON.stringify(g).slice(0, 40), refusal: /game\.json: not valid JSON/ },
  { name: 'game.json: version as a string', file: 'game.json', content: (g) => ({ ...g, version: '3' }), refusal: /version must be the number 3 \(got "3", a string\)/ },
  { name: 'game.json: a rule set that is not installed', file: 'game.json', content: (g) => ({ ...g, rulesetId: 'warhammer' }), refusal: /rulesetId "warhammer" is not an installed rule set \(installed: devil-to-pay/ },
  { name: 'game.json: a version from the future', file: 'game.json', content: (g) => ({ ...g, version: 9 }), refusal: /unsupported game file version 9 .*newer Muster/ },
  { name: 'game.json: unknown card id', file: 'game.json', content: (g) => ({ ...g, deck: { ...(g.deck as object), remaining: ['move-union-first', 'no-such-card'] } }), refusal: /deck\.remaining: "no-such-card" is not a card of deck/ },
  { name: 'game.json: card listed twice', file: 'game.json', content: (g) => ({ ...g, deck: { ...(g.deck as object), remaining: ['move-union-first', 'move-union-first'] } }), refusal: /deck\.remaining lists a card twice/ },
  { name: 'game.json: status value of the wrong type', file: 'game.json', content: (g) => ({ ...g, statusByUnit: { al19: { ordersLeft: 'x' } } }), refusal: /statusByUnit\.al19: .*ordersLeft/ },
  { name: 'game.json: unknown formation', file: 'game.json', content: (g) => ({ ...g, statusByUnit: { al19: { formation: 'blob' } } }), refusal: /statusByUnit\.al19: .*formation/ },
  { name: 'game.json: unknown field', file: 'game.json', content: (g) => ({ ...g, extra: 1 }), refusal: /game has unknown field "extra"/ },
  { name: 'game.json: turn 0', file: 'game.json', content: (g) => ({ ...g, turn: 0 }), refusal: /turn must be an integer from 1/ },
  { name: 'game.json: roller state out of range', file: 'game.json', content: (g) => ({ ...g, rng: { algorithm: 'mulberry32', state: -5 } }), refusal: /rng\.state must be an integer from 0/ },
  { name: 'game.json: valid', file: 'game.json', content: (g) => g, refusal: null },
  { name: 'terrain.json: not terrain', file: 'terrain.json', content: { areas: 'none' }, refusal: /terrain\.json: .*areas/ },
  { name: 'tag-bindings.json: unknown stand', file: 'tag-bindings.json', content: { version: 1, bindings: [{ markerId: 500, standId: 'nobody' }] }, refusal: /tag-bindings\.json: bindings\[0\]: no stand "nobody"/ },
  { name: 'tag-bindings.json: negative marker', file: 'tag-bindings.json', content: { version: 1, bindings: [{ markerId: -1, standId: null }] }, refusal: /bindings\[0\]\.markerId must be an integer from 0/ },
  { name: 'tag-bindings.json: a status chip bound to a stand', file: 'tag-bindings.json', content: { version: 1, bindings: [{ markerId: 100, standId: 'al19-1' }] }, refusal: /marker 100 is a status chip/ },
];

export interface CorruptFileOutcome {
  readonly name: string;
  /** 'refused' (with the expected message), 'started', or 'wrong' (anything else, e.g. a bare stack). */
  readonly outcome: 'refused' | 'started' | 'wrong';
  readonly message: string;
  /** The file is byte for byte what was written (nothing was "repaired" away). */
  readonly fileIntact: boolean;
}

/** A valid game.json as a fresh demo writes it. */
export async function validGameJson(): Promise<Record<string, unknown>> {
  const dir = tempDir('muster-corrupt-ref-');
  try {
    const live = await startDemo(dir.path);
    await live.stop();
    // Without its checksum: the cases below are edits of a file as a hand (or an older version) writes it;
    // the checksum's own cases are in tests/hostile/savedDamage.test.ts.
    const { checksum: _checksum, ...game } = JSON.parse(readFileSync(join(dir.path, 'demo', 'game.json'), 'utf8')) as Record<string, unknown>;
    return game;
  } finally {
    dir.remove();
  }
}

let validGame: Promise<Record<string, unknown>> | null = null;

/**
 * Writes a valid game.json (as a fresh demo saves it, without its checksum and log line count: as a hand
 * or an older version writes it) into the demo's game folder `demoDir`. A start refuses a log without its
 * game.json (issue 32, item 3), so a test that writes a log of its own writes this beside it.
 */
export async function writeValidGameJson(demoDir: string): Promise<void> {
  validGame ??= validGameJson();
  const { logLines: _logLines, ...game } = await validGame;
  mkdirSync(demoDir, { recursive: true });
  writeFileSync(join(demoDir, 'game.json'), JSON.stringify(game));
}

/** Writes the case's file into a fresh data directory and starts the demo on it. */
export async function runCorruptFileCase(c: CorruptFileCase, validGame: Record<string, unknown>): Promise<CorruptFileOutcome> {
  const dir = tempDir('muster-corrupt-');
  try {
    mkdirSync(join(dir.path, 'demo'), { recursive: true });
    const path = join(dir.path, 'demo', c.file);
    const raw = typeof c.content === 'function' ? c.content(structuredClone(validGame)) : c.content;
    const bytes = raw instanceof Uint8Array ? raw : Buffer.from(typeof raw === 'string' ? raw : JSON.stringify(raw));
    writeFileSync(path, bytes);
    let outcome: CorruptFileOutcome['outcome'];
    let message = '';
    try {
      const live = await startDemo(dir.path);
      await live.stop();
      outcome = c.refusal === null ? 'started' : 'wrong';
      message = 'started';
    } catch (err) {
      message = (err as Error).message;
      outcome = c.refusal !== null && c.refusal.test(message) ? 'refused' : 'wrong';
    }
    const fileIntact = Buffer.compare(readFileSync(path), Buffer.from(bytes)) === 0 || (c.refusal === null && outcome === 'started');
    return { name: c.name, outcome, message, fileIntact };
  } finally {
    dir.remove();
  }
}
