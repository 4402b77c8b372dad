/**
 * `muster start`: the live service. With no options, the embedded demo (the rulebook's opening battle,
 * replayed in a loop) on http://127.0.0.1:8080, building the views first if they are missing.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { CliError } from '../cliError.ts';
import { attachTuioOutput, parseTuioTarget } from '../../tuio/index.ts';
import { REPO_ROOT, startLive, viewsBuilt, type RunningLive } from '../../compose/startLive.ts';

export const summary = 'start the live service (no options: the built-in demo battle on http://127.0.0.1:8080)';

const HELP = `usage: muster start [options]

  --port <n>              HTTP/ws port (default 8080; if taken and not given, the next free one up to 8090)
  --host <addr>           address to bind (default 127.0.0.1; use 0.0.0.0 to serve the LAN)
  --data <dir>            data directory (default .muster-data in the current directory)
  --demo-source <kind>    frames (default: frames of the battle rendered live by the project's generator,
                          through the real detector) or truth (ground-truth poses straight to the tracker)
  --demo <file>           demo script (default fixtures/demo/opening-battle.demo.json)
  --fps <n>               demo frames per second (default 5 for frames, 10 for truth)
  --resolution <r>        rendered frame size for --demo-source frames: 1080p (default) or 4k
  --speed <x>             demo replay speed (default 1)
  --ruleset <id>          rule set (default devil-to-pay)
  --token-file <file>     read the operator token from this file (first line; at least 8 characters)
                          (default: $MUSTER_TOKEN when set, else a random one; the token is printed at start)
  --token <text>          operator token on the command line: works, but shows in the process list (ps)
  --max-clients <n>       most ws viewers at once (default 64); more get 503 until one leaves
  --allow-host <name>     also answer requests for this Host name (repeatable; default: only localhost
                          and loopback addresses when bound to loopback, any Host otherwise; given with a
                          non-loopback --host, only localhost, IP addresses and the names listed)
  --allow-origin <origin> let pages of this origin (e.g. https://table.example:8443) open the ws (repeatable;
                          default: only the service's own pages and non-browser clients)
  --tuio <host:port>      also send the tracked tags as TUIO 1.1 (/tuio/2Dobj over OSC/UDP) to this
                          address, for reacTIVision clients (e.g. --tuio localhost:3333)
  --no-build              do not build the views when they are missing
  --camera <spec>         camera mode: /dev/videoN, rtsp:// or http:// URL, a video file or a folder of frames
                          or 'phone' (open /phone.html?token=… on the phone: it sends its camera over the ws /camera)
  --table <file>          table profile JSON (camera mode; saved in the data directory, so needed once)
  --roster <file>         army file YAML/JSON (camera mode; saved likewise)
  --lens <file>           lens calibration from 'muster calibrate lens' (camera mode; saved likewise): corners
                          are undistorted before they are mapped to the table
  --projector <file>      projector calibration from 'muster calibrate projector' (camera mode; saved
                          likewise): served at /api/projector, used by /projector.html
`;

function positiveNumber(value: string | undefined, name: string, dflt: number, max: number): number {
  if (value === undefined) return dflt;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0 || n > max) throw new CliError(`--${name} must be a number in (0, ${max}], got "${value}"`);
  return n;
}

/**
 * The operator token: `--token-file` (first line, trimmed) or `--token`, else `$MUSTER_TOKEN`, else none
 * (a random one is made). `--token` is taken but warned about: every user of the machine sees it in `ps`.
 */
function readOperatorToken(flag: string | undefined, file: string | undefined): string | undefined {
  if (flag !== undefined && file !== undefined) throw new CliError('give the operator token once: --token or --token-file');
  let token: string | undefined;
  let from: string;
  if (file !== undefined) {
    let text: string;
    try {
      text = readFileSync(resolve(file), 'utf8');
    } catch (err) {
      throw new CliError(`--token-file ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    }
    token = (text.split(/\r?\n/)[0] ?? '').trim();
    from = `--token-file ${file}`;
  } else if (flag !== undefined) {
    console.error('muster start: warning: --token shows the operator token to every user of this machine (ps); use MUSTER_TOKEN=… or --token-file <file> instead');
    token = flag;
    from = '--token';
  } else {
    const env = process.env.MUSTER_TOKEN;
    if (env === undefined || env === '') return undefined;
    token = env.trim();
    from = 'MUSTER_TOKEN';
  }
  if (token.length < 8) throw new CliError(`the operator token (${from}) must be at least 8 characters`);
  if (/\s/.test(token)) throw new CliError(`the operator token (${from}) must not contain spaces`);
  return token;
}

async function buildViews(): Promise<boolean> {
  console.error('muster: building the views (apps/overlay) once; this takes a little while...');
  return new Promise((done) => {
    const child = spawn('npm', ['run', 'build', '-w', '@muster/overlay'], { cwd: REPO_ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
    const timer = setTimeout(() => child.kill('SIGTERM'), 300_000);
    child.on('error', () => {
      clearTimeout(timer);
      done(false);
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      done(code === 0);
    });
  });
}

export async function run(args: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        data: { type: 'string' },
        'demo-source': { type: 'string' },
        demo: { type: 'string' },
        fps: { type: 'string' },
        resolution: { type: 'string' },
        speed: { type: 'string' },
        ruleset: { type: 'string' },
        token: { type: 'string' },
        'token-file': { type: 'string' },
        'max-clients': { type: 'string' },
        'allow-host': { type: 'string', multiple: true },
        'allow-origin': { type: 'string', multiple: true },
        tuio: { type: 'string' },
        'no-build': { type: 'boolean' },
        camera: { type: 'string' },
        table: { type: 'string' },
        roster: { type: 'string' },
        lens: { type: 'string' },
        projector: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    });
  } catch (err) {
    throw new CliError((err as Error).message);
  }
  const v = parsed.values;
  if (v.help) {
    console.log(HELP);
    return 0;
  }
  if (v.camera === undefined && (v.table !== undefined || v.roster !== undefined || v.lens !== undefined || v.projector !== undefined)) {
    throw new CliError('--table, --roster, --lens and --projector go with --camera (without --camera the built-in demo runs)');
  }
  const demoSource = v['demo-source'] ?? 'frames';
  if (demoSource !== 'truth' && demoSource !== 'frames') throw new CliError(`--demo-source must be truth or frames, got "${demoSource}"`);
  const explicitPort = v.port !== undefined;
  const port = v.port === undefined ? 8080 : Number(v.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new CliError(`--port must be an integer 0..65535, got "${v.port}"`);
  const operatorToken = readOperatorToken(v.token, v['token-file']);
  const maxClients = v['max-clients'] === undefined ? undefined : Number(v['max-clients']);
  if (maxClients !== undefined && (!Number.isInteger(maxClients) || maxClients < 1 || maxClients > 10_000)) {
    throw new CliError(`--max-clients must be an integer 1..10000, got "${v['max-clients']}"`);
  }
  const allowOrigins = v['allow-origin'] ?? [];
  for (const origin of allowOrigins) {
    if (origin !== '*' && !/^https?:\/\/[^/?#\s]+$/i.test(origin)) {
      throw new CliError(`--allow-origin takes an origin like http://host:port (no path), or *; got "${origin}"`);
    }
  }
  const allowHosts = v['allow-host'] ?? [];
  for (const name of allowHosts) {
    if (name.length === 0 || /[\s/?#@]/.test(name)) throw new CliError(`--allow-host takes a host name or address (or *), got "${name}"`);
  }
  const fps = v.fps === undefined ? undefined : positiveNumber(v.fps, 'fps', 10, 60);
  const resolution = v.resolution ?? '1080p';
  if (resolution !== '1080p' && resolution !== '4k') throw new CliError(`--resolution must be 1080p or 4k, got "${resolution}"`);
  const frameSize = resolution === '4k' ? { widthPx: 3840, heightPx: 2160 } : { widthPx: 1920, heightPx: 1080 };
  const speed = positiveNumber(v.speed, 'speed', 1, 100);
  const dataDir = resolve(v.data ?? '.muster-data');
  const tuioTarget = v.tuio === undefined ? null : parseTuioTarget(v.tuio);

  if (!v['no-build'] && !viewsBuilt()) {
    const ok = await buildViews();
    if (!ok) console.error('muster: building the views failed; the service runs and its pages say how to build them');
  }

  let live: RunningLive | null = null;
  for (let attempt = 0; live === null; attempt++) {
    try {
      live = await startLive({
        source: v.camera !== undefined ? {
          mode: 'camera',
          spec: v.camera,
          ...(v.table !== undefined ? { tablePath: resolve(v.table) } : {}),
          ...(v.roster !== undefined ? { rosterPath: resolve(v.roster) } : {}),
          ...(v.lens !== undefined ? { lensPath: resolve(v.lens) } : {}),
          ...(v.projector !== undefined ? { projectorPath: resolve(v.projector) } : {}),
          ...(fps !== undefined ? { fps } : {}),
        } : {
          mode: 'demo',
          demoSource,
          speed,
          frameSize,
          ...(fps !== undefined ? { fps } : {}),
          ...(v.demo !== undefined ? { scriptPath: resolve(v.demo) } : {}),
        },
        dataDir,
        host: v.host ?? '127.0.0.1',
        port: port + attempt,
        ...(operatorToken !== undefined ? { operatorToken } : {}),
        ...(maxClients !== undefined ? { maxClients } : {}),
        ...(allowHosts.length > 0 ? { allowHosts } : {}),
        ...(allowOrigins.length > 0 ? { allowOrigins } : {}),
        ...(v.ruleset !== undefined ? { rulesetId: v.ruleset } : {}),
      });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EADDRINUSE' && !explicitPort && attempt < 10) continue;
      if (code === 'EADDRINUSE') throw new CliError(`port ${port + attempt} is in use; pick another with --port`);
      if (code === 'EADDRNOTAVAIL') throw new CliError(`cannot bind ${v.host}: no such local address`);
      if (err instanceof Error && !(err instanceof TypeError) && !(err instanceof ReferenceError)) throw new CliError(err.message);
      throw err;
    }
  }

  const tuio = tuioTarget ? attachTuioOutput(live.pipeline, { ...tuioTarget, log: (m) => console.error(`muster: ${m}`) }) : null;
  const url = live.url;
  const token = encodeURIComponent(live.operatorToken);
  const views = viewsBuilt();
  console.log(
    [
      `Muster is running: ${live.sourceDescription}`,
      `  rules:      ${live.rulesNote}`,
      `  map:        ${url}/map.html`,
      `  operator:   ${url}/operator.html?token=${token}`,
      `  projector:  ${url}/projector.html`,
      `  overlay:    ${url}/overlay.html`,
      `  health:     ${url}/api/health`,
      `  ws:         ${url.replace(/^http/, 'ws')}/ws`,
      `  operator token: ${live.operatorToken}`,
      `  data:       ${live.store.dir}`,
      ...(tuio ? [`  tuio:       udp://${tuio.target} (TUIO 1.1 /tuio/2Dobj)`] : []),
      ...(views ? [] : ['  (views not built: the pages explain how; npm run build -w @muster/overlay)']),
      'Press Ctrl+C to stop.',
    ].join('\n'),
  );

  await new Promise<void>((done) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      done();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  console.error('muster: stopping');
  await tuio?.close();
  await live.stop();
  return 0;
}
