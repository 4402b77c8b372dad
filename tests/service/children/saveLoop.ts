/**
 * Child process for the kill -9 test: saves ever-new versions of a large document through the real
 * persistence code as fast as it can, and appends game log lines, printing "saved <n>" after each save.
 * Usage: node --import tsx saveLoop.ts <dataDir>
 */
import { openDataStore } from '../../../apps/server/src/persist/dataStore.ts';
import { writeFileAtomic } from '../../../apps/server/src/persist/writeFileAtomic.ts';

const dir = process.argv[2];
if (!dir) throw new Error('usage: saveLoop.ts <dataDir>');
const store = openDataStore(dir);
const log = store.openLog<{ index: number; version: number; pad: string }>();
const pad = 'x'.repeat(2000);
// ~6 MB per save, serialised once, so nearly all the loop's time is spent inside the save and the kill
// lands mid-write most of the time.
const body = JSON.stringify(Array.from({ length: 60_000 }, (_, i) => ({ id: `s${i}`, xIn: i / 1000, yIn: i % 48, note: 'abcdefghij' })));
for (let version = 1; ; version++) {
  writeFileAtomic(store.path('terrain'), `{"version":${version},"stands":${body}}`);
  log.append({ index: log.count(), version, pad });
  process.stdout.write(`saved ${version}\n`);
}
