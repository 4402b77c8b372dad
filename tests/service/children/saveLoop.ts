/**
 * Child process for the kill -9 test: saves ever-new versions of a large document through the real
 * persistence code as fast as it can, and appends game log lines, printing "saved <n>" after each save.
 * Usage: node --import tsx saveLoop.ts <dataDir>
 */
import { openDataStore } from '../../../apps/vision/src/persist/dataStore.ts';

const dir = process.argv[2];
if (!dir) throw new Error('usage: saveLoop.ts <dataDir>');
const store = openDataStore(dir);
const log = store.openLog<{ index: number; version: number; pad: string }>();
const pad = 'x'.repeat(2000);
for (let version = 1; ; version++) {
  // ~2 MB per save so the kill usually lands mid-write.
  const doc = { version, stands: Array.from({ length: 20_000 }, (_, i) => ({ id: `s${i}`, xIn: version + i / 1000, yIn: i % 48 })) };
  store.write('terrain', doc);
  log.append({ index: log.count(), version, pad });
  process.stdout.write(`saved ${version}\n`);
}
