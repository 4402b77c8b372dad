/**
 * `muster start`: the live service. With no options, the embedded demo (the rulebook's opening battle,
 * replayed in a loop) on http://127.0.0.1:8080, building the views first if they are missing.
 */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { frameSourceKind } from '@muster/vision';
import { CliError } from '../cliError.ts';
import { warn } from '../colour.ts';
import { parseCommandArgs, type CommandSpec } from '../commandArgs.ts';
import { attachTuioOutput, parseTuioTarget } from '../../tuio/index.ts';
import { attachBrokerPublisher, parseBrokerUrl, resolveTableId } from '../../mqtt/index.ts';
import { REPO_ROOT, startLive, viewsBuilt, type RunningLive } from '../../compose/startLive.ts';
import { cameraSettingsFromFlags } from '../../compose/openCamera.ts';
import { resolveOperatorToken } from '../../config/resolveOperatorToken.ts';
import { resolveStartValues } from '../../config/resolveStartValues.ts';
import { resolveTls } from '../../config/resolveTls.ts';
import { START_OPTION_TABLE } from '../../config/startOptions.ts';
import { configureLogging, log } from '../../log/logger.ts';
import { lanUrls } from '../../http/lanUrls.ts';
import { stopSignal } from '../stopSignal.ts';

/**
 * The options of `muster start`: declared once in `config/startOptions.ts` (flag, `MUSTER_*` variable,
 * config-file key, checks, help), parsed and listed in the help from there.
 */
const OPTIONS = START_OPTION_TABLE;

const SPEC = {
  command: 'start',
  synopsis: ['[options]'],
  options: OPTIONS,
  notes:
    'Every option can also be set by its environment variable (MUSTER_ and the name in capitals,\n' +
    '- as _: MUSTER_PORT, MUSTER_ALLOW_HOST=a,b, MUSTER_HTTPS=1) or in a YAML/JSON config file (the\n' +
    'names as keys: "port: 8443"), --config <file> or <data>/muster.yaml. A flag wins over the\n' +
    'environment, which wins over the file. The operator token is kept in <data>/operator-token.',
} as const satisfies CommandSpec;

/** Whether `--camera` names a live source (webcam, IP camera, phone) rather than a recording. */
async function isLiveCamera(spec: string): Promise<boolean> {
  if (spec === 'phone') return true;
  try {
    return ['webcam', 'ip-camera'].includes(await frameSourceKind(spec));
  } catch {
    return false; // a camera that does not exist is reported when it is opened
  }
}

function positiveNumber(value: string | undefined, name: string, dflt: number, max: number): number {
  if (value === undefined) return dflt;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0 || n > max) throw new CliError(`--${name} must be a number in (0, ${max}], got "${value}"`);
  return n;
}

async function buildViews(): Promise<boolean> {
  log.info('building the views (apps/overlay) once; this takes a little while...');
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
  // Flags, then MUSTER_* variables, then the config file (config/resolveStartValues.ts).
  const settings = resolveStartValues(parseCommandArgs(SPEC, args).values);
  const v = settings.values;
  configureLogging({ format: (v['log-format'] as 'text' | 'json' | 'auto' | undefined) ?? 'auto' });
  for (const w of settings.warnings) warn(w);
  if (v.camera === undefined && (v.table !== undefined || v.roster !== undefined || v.lens !== undefined || v.projector !== undefined)) {
    throw new CliError('--table, --roster, --lens and --projector go with --camera (without --camera the built-in demo runs)');
  }
  let cameraSettings;
  try {
    cameraSettings = cameraSettingsFromFlags({ size: v['camera-size'], fps: v['camera-fps'], format: v['camera-format'] });
  } catch (err) {
    throw new CliError((err as Error).message);
  }
  if (cameraSettings !== undefined && v.camera === undefined) throw new CliError('--camera-size, --camera-fps and --camera-format go with --camera (a webcam)');
  const demoSource = v['demo-source'] ?? 'frames';
  if (demoSource !== 'truth' && demoSource !== 'frames') throw new CliError(`--demo-source must be truth or frames, got "${demoSource}"`);
  const explicitPort = v.port !== undefined;
  const port = v.port === undefined ? 8080 : Number(v.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new CliError(`--port must be an integer 0..65535, got "${v.port}"`);
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
  if (fps !== undefined && v.camera !== undefined && (await isLiveCamera(v.camera))) {
    warn(`--fps ${v.fps} is not used: ${v.camera} is a live camera and sends at its own rate (--fps is the demo's rate, or a recording's)`);
  }
  const resolution = v.resolution ?? '1080p';
  if (resolution !== '1080p' && resolution !== '4k') throw new CliError(`--resolution must be 1080p or 4k, got "${resolution}"`);
  const frameSize = resolution === '4k' ? { widthPx: 3840, heightPx: 2160 } : { widthPx: 1920, heightPx: 1080 };
  const speed = positiveNumber(v.speed, 'speed', 1, 100);
  const dataDir = resolve(v.data ?? '.muster-data');
  // The token: given (flag, MUSTER_TOKEN, file), else the one kept in the data directory.
  const operatorToken = resolveOperatorToken(settings, dataDir);
  for (const w of operatorToken.warnings) warn(w);
  const tls = resolveTls(settings, dataDir);
  const tuioTarget = v.tuio === undefined ? null : parseTuioTarget(v.tuio);
  if (v['publish-table'] !== undefined && v.publish === undefined) throw new CliError('--publish-table goes with --publish <broker URL>');
  const publishTo = v.publish === undefined ? null : { broker: parseBrokerUrl(v.publish, '--publish'), tableId: resolveTableId(v['publish-table']) };

  if (!v['no-build'] && !viewsBuilt()) {
    const ok = await buildViews();
    if (!ok) log.warn('building the views failed; the service runs and its pages say how to build them');
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
          ...(cameraSettings !== undefined ? { camera: cameraSettings } : {}),
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
        operatorToken: operatorToken.token,
        ...(tls ? { tls: { certPem: tls.certPem, keyPem: tls.keyPem } } : {}),
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

  // Listen for the stop before saying the service runs: a supervisor (or a test) may send SIGTERM as soon
  // as it reads the banner, and a handler installed after the write can miss it.
  const stopAsked = stopSignal();
  const tuio = tuioTarget ? attachTuioOutput(live.pipeline, { ...tuioTarget, log: (m) => log.warn(m) }) : null;
  const url = live.url;
  // The broker never stops the table: an unreachable one is logged and retried (mqtt/brokerPublisher.ts).
  const published = publishTo
    ? attachBrokerPublisher(live.pipeline, { ...publishTo, viewsUrl: lanUrls(url)[0] ?? url, warn: (m) => log.warn(m), info: (m) => log.info(m) })
    : null;
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
      ...lanUrls(url).map((lan) => `  network:    ${lan}  (phones: ${lan}/phone.html?token=${token})`),
      `  ws:         ${url.replace(/^http/, 'ws')}/ws`,
      `  operator token: ${live.operatorToken} (${operatorToken.from})`,
      ...(tls ? [`  https:      ${tls.from}; certificate SHA-256 ${tls.fingerprint}, valid to ${tls.validTo}`] : []),
      `  data:       ${live.store.dir}`,
      ...(tuio ? [`  tuio:       udp://${tuio.target} (TUIO 1.1 /tuio/2Dobj)`] : []),
      ...(published ? [`  publish:    ${published.target} as ${published.topics.status.replace(/\/status$/, '/…')} (MQTT)`] : []),
      ...(views ? [] : ['  (views not built: the pages explain how; npm run build -w @muster/overlay)']),
      'Press Ctrl+C to stop.',
    ].join('\n'),
  );

  await stopAsked;
  log.info('stopping');
  await tuio?.close();
  await published?.close();
  await live.stop();
  return 0;
}
