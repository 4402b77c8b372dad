/**
 * `npm run bench`: runs every `*.bench.ts` module in this folder (or those named on the command line,
 * e.g. `npm run bench -- rules`) and prints one JSON object keyed by module name. Each module exports
 * `run(): Promise<Record<string, unknown>>` and reports medians over repeated runs. Progress goes to
 * stderr so stdout stays valid JSON.
 */
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const wanted = process.argv.slice(2);
const modules = readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts'))
  .map((f) => f.replace(/\.bench\.ts$/, ''))
  .filter((name) => wanted.length === 0 || wanted.includes(name))
  .sort();

if (modules.length === 0) {
  console.error(`no bench modules matched ${wanted.join(', ') || '(none present)'}`);
  process.exit(2);
}

const report: Record<string, unknown> = {
  machine: { node: process.version, platform: process.platform, arch: process.arch },
};
for (const name of modules) {
  process.stderr.write(`bench: ${name} ...\n`);
  const started = performance.now();
  const mod = (await import(join(here, `${name}.bench.ts`))) as { run: () => Promise<Record<string, unknown>> };
  report[name] = await mod.run();
  process.stderr.write(`bench: ${name} done in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
}
console.log(JSON.stringify(report, null, 2));
process.exit(0);
