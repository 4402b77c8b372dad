/**
 * Saved files that go missing, dangle, get damaged or are links (issue 32, items 3, 4, 5 and 6). A real
 * demo service plays a game to turn 7 (a marker bound, the terrain edited, dice rolled) on a temp data
 * directory; each case copies that directory, breaks one file as a crash, a disk or a hand would, and
 * starts the service on it again. Before: a missing or dangling game.json started over at turn 1 with
 * health `ok`; a missing tag-bindings.json dropped the bindings; a digit flipped in tag-bindings.json moved
 * a binding to another marker; a cut-short log started `ok`; an altered operator token was used; links
 * were followed (the token's target chmod-ed, the log appended outside the directory).
 */
import { chmodSync, cpSync, existsSync, lstatSync, mkdirSync, readFileSync, rmSync, statSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storedOperatorToken } from '../../apps/server/src/config/storedOperatorToken.ts';
import { startDemo, tempDir } from '../service/helpers.ts';

const TOKEN = 'saved-damage-operator-token';
const root = tempDir('muster-saved-damage-');
/** The played game's data directory (its game is in `demo/`). */
const played = join(root.path, 'played');
const BINDING = { markerId: 500, standId: 'al19-1' } as const;
const TERRAIN = { areas: [{ id: 'wood-9', kind: 'open-woods', vertices: [{ xIn: 2, yIn: 2 }, { xIn: 9, yIn: 2 }, { xIn: 9, yIn: 7 }] }], linear: [], roads: [], elevations: [] };
afterAll(() => root.remove());

async function act(url: string, body: unknown): Promise<void> {
  const res = await fetch(`${url}/api/actions`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (res.status !== 200) throw new Error(`${JSON.stringify(body)}: ${res.status} ${await res.text()}`);
}

beforeAll(async () => {
  const live = await startDemo(played, { token: TOKEN });
  try {
    await act(live.url, { type: 'assign-tag', ...BINDING });
    await act(live.url, { type: 'set-terrain', terrain: TERRAIN });
    await act(live.url, { type: 'roll-dice', dice: 3 });
    await act(live.url, { type: 'set-turn', turn: 7 });
    await act(live.url, { type: 'set-unit-status', unitId: 'al26', status: { disordered: true } });
  } finally {
    await live.stop();
  }
});

let copies = 0;
/** A copy of the played data directory, and its game folder. */
function copyOfGame(): { dataDir: string; game: string } {
  const dataDir = join(root.path, `copy-${copies++}`);
  cpSync(played, dataDir, { recursive: true });
  return { dataDir, game: join(dataDir, 'demo') };
}

type Started = { ok: true; turn: number; health: { status: string; warnings: readonly string[] }; bindings: unknown; terrain: unknown } | { ok: false; message: string };

/** Starts the demo on `dataDir`; what it came up with, or the refusal. */
async function startOn(dataDir: string): Promise<Started> {
  let live;
  try {
    live = await startDemo(dataDir, { token: TOKEN });
  } catch (err) {
    return { ok: false, message: (err as Error).message };
  }
  try {
    const snapshot = (await (await fetch(`${live.url}/api/snapshot`)).json()) as { turn: number };
    const roster = (await (await fetch(`${live.url}/api/roster`)).json()) as { bindings?: unknown };
    const terrain = await (await fetch(`${live.url}/api/terrain`)).json();
    return { ok: true, turn: snapshot.turn, health: live.pipeline.state().health, bindings: roster.bindings, terrain };
  } finally {
    await live.stop();
  }
}

describe('the played game itself', () => {
  it('starts again at turn 7 with health ok (the reference for the cases below)', async () => {
    const { dataDir } = copyOfGame();
    const r = await startOn(dataDir);
    expect(r.ok && r.turn).toBe(7);
    expect(r.ok && r.health.warnings).toEqual([]);
  });
});

describe('item 3: a missing or dangling saved file never starts the game over', () => {
  it('game.json missing: refused, naming the file and the log; nothing written', async () => {
    const { dataDir, game } = copyOfGame();
    rmSync(join(game, 'game.json'));
    const log = readFileSync(join(game, 'game-log.jsonl'));
    const r = await startOn(dataDir);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.message).toMatch(/game\.json is missing, but the game log .*game-log\.jsonl holds \d+ entries of a game \(the last on turn 7\).*Restore .*game\.json/);
    expect(existsSync(join(game, 'game.json'))).toBe(false);
    expect(readFileSync(join(game, 'game-log.jsonl')).equals(log)).toBe(true);
  });

  it('game.json a dangling link: refused as a link, left as it was', async () => {
    const { dataDir, game } = copyOfGame();
    rmSync(join(game, 'game.json'));
    symlinkSync(join(root.path, 'nowhere.json'), join(game, 'game.json'));
    const r = await startOn(dataDir);
    expect(!r.ok && r.message).toMatch(/game\.json is a symbolic link; Muster does not follow links inside its data directory/);
    expect(lstatSync(join(game, 'game.json')).isSymbolicLink()).toBe(true);
  });

  it('tag-bindings.json missing while the log has assign-tag entries: refused', async () => {
    const { dataDir, game } = copyOfGame();
    rmSync(join(game, 'tag-bindings.json'));
    const r = await startOn(dataDir);
    expect(!r.ok && r.message).toMatch(/tag-bindings\.json is missing, but the game log .* holds "assign-tag" entries: it keeps the markers bound to stands at the table/);
  });

  it('terrain.json missing: rebuilt from the log (each terrain entry holds the whole terrain)', async () => {
    const { dataDir, game } = copyOfGame();
    rmSync(join(game, 'terrain.json'));
    const r = await startOn(dataDir);
    expect(r.ok && r.terrain).toEqual(TERRAIN);
    expect(existsSync(join(game, 'terrain.json'))).toBe(true);
  });
});

describe('item 4: damage is caught, never used', () => {
  it('a digit flipped in tag-bindings.json: refused by its checksum, file untouched', async () => {
    const { dataDir, game } = copyOfGame();
    const file = join(game, 'tag-bindings.json');
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('"markerId": 500');
    const damaged = text.replace('"markerId": 500', '"markerId": 501');
    writeFileSync(file, damaged);
    const r = await startOn(dataDir);
    expect(!r.ok && r.message).toMatch(/tag-bindings\.json: the content does not match its checksum: it was changed after Muster saved it .*left untouched/);
    expect(readFileSync(file, 'utf8')).toBe(damaged);
  });

  it('game.json with its turn changed: refused by its checksum', async () => {
    const { dataDir, game } = copyOfGame();
    const file = join(game, 'game.json');
    writeFileSync(file, readFileSync(file, 'utf8').replace('"turn": 7', '"turn": 1'));
    const r = await startOn(dataDir);
    expect(!r.ok && r.message).toMatch(/game\.json: the content does not match its checksum/);
  });

  it('a log cut short: starts, and health says the log lost entries', async () => {
    const { dataDir, game } = copyOfGame();
    truncateSync(join(game, 'game-log.jsonl'), 0);
    const r = await startOn(dataDir);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.turn).toBe(7);
    expect(r.health.status).toBe('degraded');
    expect(r.health.warnings.join('\n')).toMatch(/game-log\.jsonl has 0 lines, but game\.json was saved when it had \d+: the log lost entries/);
  });

  it('a digit flipped in a log line (still valid JSON): caught by the line CRC, skipped and reported in health', async () => {
    const { dataDir, game } = copyOfGame();
    const file = join(game, 'game-log.jsonl');
    const lines = readFileSync(file, 'utf8').split('\n');
    const at = lines.findIndex((l) => l.includes('"kind":"dice"'));
    expect(at).toBeGreaterThanOrEqual(0);
    // The roll's first face, another number: the line still parses.
    lines[at] = lines[at]!.replace(/"faces":\[(\d)/, (_m, d: string) => `"faces":[${d === '6' ? '1' : Number(d) + 1}`);
    writeFileSync(file, lines.join('\n'));
    const r = await startOn(dataDir);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.health.status).toBe('degraded');
    expect(r.health.warnings.join('\n')).toMatch(new RegExp(`game-log\\.jsonl line ${at + 1}: not a game log entry \\(its CRC does not match`));
  });

  it('an altered operator token: refused, not used', () => {
    const dataDir = join(root.path, 'token-altered');
    mkdirSync(dataDir);
    const made = storedOperatorToken(dataDir);
    const file = join(dataDir, 'operator-token');
    const text = readFileSync(file, 'utf8');
    const flipped = `${made.token[0] === 'a' ? 'b' : 'a'}${text.slice(1)}`;
    writeFileSync(file, flipped, { mode: 0o600 });
    expect(() => storedOperatorToken(dataDir)).toThrow(/the stored operator token does not match the checksum on its second line/);
    expect(readFileSync(file, 'utf8')).toBe(flipped);
  });
});

describe('item 5: links in the data directory are not followed', () => {
  it('an operator-token link: refused; its target neither read as the token nor chmod-ed', () => {
    const dataDir = join(root.path, 'token-link');
    mkdirSync(dataDir);
    const target = join(root.path, 'shared-file.txt');
    writeFileSync(target, 'not-a-token-but-long-enough\n');
    chmodSync(target, 0o644);
    symlinkSync(target, join(dataDir, 'operator-token'));
    expect(() => storedOperatorToken(dataDir)).toThrow(/operator-token is a symbolic link; Muster does not read the operator token through a link/);
    expect(statSync(target).mode & 0o777).toBe(0o644);
  });

  it('a game-log.jsonl link to a file outside: refused; the outside file is not appended to', async () => {
    const { dataDir, game } = copyOfGame();
    const outside = join(root.path, 'outside.jsonl');
    cpSync(join(game, 'game-log.jsonl'), outside);
    const before = readFileSync(outside);
    rmSync(join(game, 'game-log.jsonl'));
    symlinkSync(outside, join(game, 'game-log.jsonl'));
    const r = await startOn(dataDir);
    expect(!r.ok && r.message).toMatch(/game-log\.jsonl is a symbolic link; Muster does not follow links inside its data directory/);
    expect(readFileSync(outside).equals(before)).toBe(true);
  });
});

describe('item 6: a terrain edit is logged before it is saved', () => {
  it('an edit in the log but not in terrain.json (a crash between the two) is saved again from the log at start', async () => {
    const { dataDir, game } = copyOfGame();
    // What a crash after the log append and before the save leaves: terrain.json as before the edit.
    rmSync(join(game, 'terrain.json'));
    writeFileSync(join(game, 'terrain.json'), JSON.stringify({ areas: [], linear: [], roads: [], elevations: [] }));
    const r = await startOn(dataDir);
    expect(r.ok && r.terrain).toEqual(TERRAIN);
    const saved = JSON.parse(readFileSync(join(game, 'terrain.json'), 'utf8')) as Record<string, unknown>;
    expect(saved.areas).toEqual(TERRAIN.areas);
  });
});
