/**
 * The version `muster --version` prints: the `version` of the package the command was installed from
 * (the repository's root package.json, or the server's own when only it is installed).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const cliDir = dirname(fileURLToPath(import.meta.url));
const CANDIDATES = [join(cliDir, '../../../../package.json'), join(cliDir, '../../package.json')];

let cached: string | undefined;

export function musterVersion(): string {
  if (cached !== undefined) return cached;
  for (const file of CANDIDATES) {
    if (!existsSync(file)) continue;
    const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: unknown; version?: unknown };
    if (typeof pkg.version === 'string' && (pkg.name === 'muster' || file === CANDIDATES[1])) return (cached = pkg.version);
  }
  return (cached = 'unknown');
}
