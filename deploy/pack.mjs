// `npm run pack [-- --out <dir>] [-- --rebuild-views]`: a tarball that `npm i -g muster-<version>.tgz`
// turns into a working `muster` on another machine.
//
// Why not plain `npm pack` at the root: the @muster/* workspace packages are symlinks in node_modules, so
// the root tarball would carry none of them. This script stages a self-contained copy instead:
//   - the repository layout the service relies on (REPO_ROOT-relative paths: apps/server, apps/vision,
//     apps/overlay/dist, fixtures/demo, fixtures/rosters, fixtures/generator for the demo's frames,
//     calibration/tables and boards), without tests;
//   - node_modules/@muster/{rules,protocol,table-mapping} as real copies and @muster/vision as a one-line
//     shim onto apps/vision (fixtures/generator imports apps/vision relatively: one copy, one module
//     instance), all four in bundleDependencies so npm puts them in the tarball;
//   - every external dependency of those packages in the staged package.json, so npm installs them from
//     the registry (sharp's native part then matches the installing machine).
// The views are built once (apps/overlay/dist) if they are not already.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');

const { values } = parseArgs({
  options: {
    out: { type: 'string' },
    'rebuild-views': { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (values.help) {
  console.log('usage: npm run pack [-- --out <dir>] [-- --rebuild-views]\n\nWrites muster-<version>.tgz into <dir> (default: the current directory) and prints its path.');
  process.exit(0);
}
const outDir = resolve(values.out ?? process.cwd());

/** Workspace packages the service imports; vision is shimmed (see above), the others copied. */
const COPIED = { '@muster/rules': 'packages/rules', '@muster/protocol': 'packages/protocol', '@muster/table-mapping': 'packages/table-mapping' };
const SHIMMED = { '@muster/vision': 'apps/vision' };
const RUNTIME_PACKAGES = ['apps/server', 'apps/vision', ...Object.values(COPIED)];

function readJson(file) {
  return JSON.parse(readFileSync(file, 'utf8'));
}

function fail(message) {
  console.error(`pack: ${message}`);
  process.exit(1);
}

/** Copies a folder without tests and TypeScript project files (not needed to run). */
function copyRuntime(from, to) {
  cpSync(join(repoRoot, from), to, {
    recursive: true,
    filter: (src) => {
      const name = basename(src);
      return !/\.test\.ts$/.test(name) && name !== 'tsconfig.json' && name !== 'node_modules' && name !== '__snapshots__';
    },
  });
}

/** A workspace package.json reduced to what resolution needs (its dependencies move to the top). */
function runtimeManifest(pkg) {
  const out = { name: pkg.name, version: pkg.version, private: true, type: pkg.type };
  if (pkg.exports !== undefined) out.exports = pkg.exports;
  if (pkg.bin !== undefined) out.bin = pkg.bin;
  return out;
}

const rootPkg = readJson(join(repoRoot, 'package.json'));

// External dependencies of everything that runs, with one range each (a clash means the workspace disagrees).
const dependencies = {};
for (const dir of RUNTIME_PACKAGES) {
  const deps = readJson(join(repoRoot, dir, 'package.json')).dependencies ?? {};
  for (const [name, range] of Object.entries(deps)) {
    if (name.startsWith('@muster/')) continue;
    if (dependencies[name] !== undefined && dependencies[name] !== range) fail(`${name} is "${dependencies[name]}" in one package and "${range}" in ${dir}; make them agree`);
    dependencies[name] = range;
  }
}

// The views, built once.
if (values['rebuild-views'] || !existsSync(join(repoRoot, 'apps/overlay/dist/index.html'))) {
  console.error('pack: building the views (apps/overlay)...');
  const built = spawnSync('npm', ['run', 'build', '-w', '@muster/overlay'], { cwd: repoRoot, stdio: ['ignore', 'ignore', 'inherit'] });
  if (built.status !== 0) fail('building the views failed (npm run build -w @muster/overlay)');
}

const stage = mkdtempSync(join(tmpdir(), 'muster-pack-'));
try {
  copyRuntime('apps/server/bin', join(stage, 'apps/server/bin'));
  copyRuntime('apps/server/src', join(stage, 'apps/server/src'));
  copyRuntime('apps/vision/src', join(stage, 'apps/vision/src'));
  copyRuntime('apps/overlay/dist', join(stage, 'apps/overlay/dist'));
  for (const dir of ['apps/server', 'apps/vision']) {
    writeFileSync(join(stage, dir, 'package.json'), JSON.stringify(runtimeManifest(readJson(join(repoRoot, dir, 'package.json'))), null, 2) + '\n');
  }
  // The demo (script, table, roster, frame renderer) and the table profiles and boards the commands default to.
  for (const dir of ['fixtures/demo', 'fixtures/rosters', 'calibration/tables']) copyRuntime(dir, join(stage, dir));
  copyRuntime('fixtures/seededRandom.ts', join(stage, 'fixtures/seededRandom.ts'));
  mkdirSync(join(stage, 'fixtures/generator'), { recursive: true });
  for (const name of readdirSync(join(repoRoot, 'fixtures/generator'))) {
    if (name.endsWith('.ts') && !name.endsWith('.test.ts') && name !== 'cli.ts') copyRuntime(`fixtures/generator/${name}`, join(stage, 'fixtures/generator', name));
  }
  mkdirSync(join(stage, 'calibration/boards'), { recursive: true });
  for (const name of readdirSync(join(repoRoot, 'calibration/boards'))) {
    if (name.endsWith('.json')) copyRuntime(`calibration/boards/${name}`, join(stage, 'calibration/boards', name));
  }
  for (const name of ['README.md', 'LICENSE']) copyRuntime(name, join(stage, name));

  for (const [name, dir] of Object.entries(COPIED)) {
    const target = join(stage, 'node_modules', name);
    const pkg = readJson(join(repoRoot, dir, 'package.json'));
    for (const part of ['src', 'schema']) if (existsSync(join(repoRoot, dir, part))) copyRuntime(`${dir}/${part}`, join(target, part));
    writeFileSync(join(target, 'package.json'), JSON.stringify(runtimeManifest(pkg), null, 2) + '\n');
  }
  for (const [name, dir] of Object.entries(SHIMMED)) {
    const target = join(stage, 'node_modules', name);
    const pkg = readJson(join(repoRoot, dir, 'package.json'));
    if (JSON.stringify(pkg.exports) !== JSON.stringify({ '.': './src/index.ts' })) fail(`${name} has exports other than "." now; extend the shim in deploy/pack.mjs`);
    mkdirSync(target, { recursive: true });
    writeFileSync(join(target, 'index.ts'), `// The package lives at ${dir} (one copy: fixtures/generator imports it by relative path).\nexport * from '../../../${dir}/src/index.ts';\n`);
    writeFileSync(join(target, 'package.json'), JSON.stringify({ name, version: pkg.version, private: true, type: 'module', exports: { '.': './index.ts' } }, null, 2) + '\n');
  }

  const bundled = [...Object.keys(COPIED), ...Object.keys(SHIMMED)].sort();
  for (const name of bundled) dependencies[name] = readJson(join(stage, 'node_modules', name, 'package.json')).version;
  const sortedDeps = Object.fromEntries(Object.entries(dependencies).sort(([a], [b]) => a.localeCompare(b)));
  const manifest = {
    name: rootPkg.name,
    version: rootPkg.version,
    private: true, // npm pack and install work; an accidental `npm publish` does not
    description: rootPkg.description,
    type: 'module',
    license: rootPkg.license,
    engines: rootPkg.engines,
    bin: rootPkg.bin,
    files: ['apps', 'fixtures', 'calibration', 'README.md', 'LICENSE'],
    dependencies: sortedDeps,
    bundleDependencies: bundled,
  };
  writeFileSync(join(stage, 'package.json'), JSON.stringify(manifest, null, 2) + '\n');

  mkdirSync(outDir, { recursive: true });
  const packed = spawnSync('npm', ['pack', '--json', '--pack-destination', outDir], { cwd: stage, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  if (packed.status !== 0) fail('npm pack failed in the staged folder');
  const [info] = JSON.parse(packed.stdout);
  console.error(`pack: ${info.entryCount} files, ${(info.size / 1e6).toFixed(1)} MB packed, ${(info.unpackedSize / 1e6).toFixed(1)} MB unpacked`);
  console.log(join(outDir, info.filename));
} finally {
  rmSync(stage, { recursive: true, force: true });
}
