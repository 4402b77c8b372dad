/**
 * Every option of `muster start`, declared once: its flag (also its key in the config file), its
 * environment variable, its type and checks, its default and its help. The CLI's parser (the table is an
 * option table of `cli/commandArgs.ts`), the config file (`loadStartConfigFile.ts`) and the environment
 * (`resolveStartValues.ts`) all read this table, so an option cannot exist in one and be missing from
 * another (`tests/deploy/startConfig.test.ts` checks `muster start --help` against it).
 *
 * Precedence: flag > `MUSTER_*` environment variable > config file > default.
 */
import { tableIdProblem } from '@muster/protocol';

/** A start option's value as the flag, the environment or the config file gives it. */
export type StartValue = string | string[] | boolean;

export type StartOptionKind =
  /** Free text. */
  | 'string'
  /** A file or folder: relative paths in a config file are relative to that file's folder. */
  | 'path'
  | 'integer'
  /** A number in (min, max]. */
  | 'number'
  | 'boolean'
  /** One of `choices`. */
  | 'choice'
  /** Repeatable flag; a YAML/JSON list in the config file; comma-separated in the environment. */
  | 'list';

/**
 * One option as declared. `type`, `multiple`, `arg` and `help` are what the CLI's parser reads (the
 * `OptionSpec` of `cli/commandArgs.ts`); the rest is for the environment and the config file.
 */
export interface StartOptionDecl {
  /** How the CLI parses it: a value, or a switch. */
  readonly type: 'string' | 'boolean';
  /** Repeatable (`--allow-host a --allow-host b`). */
  readonly multiple?: boolean;
  /** The value's placeholder in the help, e.g. `<n>`. */
  readonly arg?: string;
  /** One or more lines for the help; the first says what it is, with its default. */
  readonly help: string;
  readonly kind: StartOptionKind;
  /** The environment variable: `MUSTER_` + the name in upper case, `-` → `_`. */
  readonly env: string;
  readonly choices?: readonly string[];
  /** integer: min..max inclusive; number: (min, max]. */
  readonly min?: number;
  readonly max?: number;
  /** Not a key of the config file (`--config` itself, one-off actions). */
  readonly notInConfigFile?: boolean;
  /** A further check of one value (a list: of each item); returns what is wrong, or null. */
  readonly check?: (value: string) => string | null;
}

export interface StartOptionSpec extends StartOptionDecl {
  /** The flag without `--`; also the key in the config file. */
  readonly name: string;
}

/** The environment variable of an option name. */
export function envNameOf(name: string): string {
  return `MUSTER_${name.toUpperCase().replaceAll('-', '_')}`;
}

export const START_OPTION_TABLE = {
  'config': {
    type: 'string',
    env: 'MUSTER_CONFIG',
    kind: 'path',
    arg: '<file>',
    notInConfigFile: true,
    help: 'read options from this YAML or JSON file (default: <data>/muster.yaml when it exists)',
  },
  'port': {
    type: 'string',
    env: 'MUSTER_PORT',
    kind: 'integer',
    arg: '<n>',
    min: 0,
    max: 65535,
    help: 'HTTP/ws port (default 8080; if taken and not given, the next free one up to 8090)',
  },
  'host': {
    type: 'string',
    env: 'MUSTER_HOST',
    kind: 'string',
    arg: '<addr>',
    help: 'address to bind (default 127.0.0.1; use 0.0.0.0 to serve the LAN)',
  },
  'data': {
    type: 'string',
    env: 'MUSTER_DATA',
    kind: 'path',
    arg: '<dir>',
    help: 'data directory (default .muster-data in the current directory)',
  },
  'demo-source': {
    type: 'string',
    env: 'MUSTER_DEMO_SOURCE',
    kind: 'choice',
    arg: '<kind>',
    choices: ['truth', 'frames'],
    help: "frames (default: frames of the battle rendered live by the project's generator,\nthrough the real detector) or truth (ground-truth poses straight to the tracker)",
  },
  'demo': {
    type: 'string',
    env: 'MUSTER_DEMO',
    kind: 'path',
    arg: '<file>',
    help: 'demo script (default fixtures/demo/opening-battle.demo.json)',
  },
  'fps': {
    type: 'string',
    env: 'MUSTER_FPS',
    kind: 'number',
    arg: '<n>',
    min: 0,
    max: 60,
    help:
      'demo frames per second (default 5 for frames, 10 for truth); with --camera, the replay\n' +
      'rate of a recording (a folder of frames, a video that does not give its own). Never asked\n' +
      'of a live camera (webcam, IP camera, phone): it sends at its own rate',
  },
  'resolution': {
    type: 'string',
    env: 'MUSTER_RESOLUTION',
    kind: 'choice',
    arg: '<r>',
    choices: ['1080p', '4k'],
    help: 'rendered frame size for --demo-source frames: 1080p (default) or 4k',
  },
  'speed': {
    type: 'string',
    env: 'MUSTER_SPEED',
    kind: 'number',
    arg: '<x>',
    min: 0,
    max: 100,
    help: 'demo replay speed (default 1)',
  },
  'ruleset': {
    type: 'string',
    env: 'MUSTER_RULESET',
    kind: 'string',
    arg: '<id>',
    help: "rule set; wins over the one saved with the game (default: the saved one, else the roster's, else devil-to-pay)",
  },
  'token-file': {
    type: 'string',
    env: 'MUSTER_TOKEN_FILE',
    kind: 'path',
    arg: '<file>',
    help: 'read the operator token from this file (first line; at least 8 characters)\n(default: $MUSTER_TOKEN when set, else the one stored in <data>/operator-token,\nmade on the first start; the token is printed at start)',
  },
  'token': {
    type: 'string',
    env: 'MUSTER_TOKEN',
    kind: 'string',
    arg: '<text>',
    help: 'operator token on the command line: works, but shows in the process list (ps)',
  },
  'rotate-token': {
    type: 'boolean',
    env: 'MUSTER_ROTATE_TOKEN',
    kind: 'boolean',
    notInConfigFile: true,
    help: 'replace the stored operator token (<data>/operator-token) with a new one',
  },
  'max-clients': {
    type: 'string',
    env: 'MUSTER_MAX_CLIENTS',
    kind: 'integer',
    arg: '<n>',
    min: 1,
    max: 10_000,
    help: 'most ws viewers at once (default 64); more get 503 until one leaves',
  },
  'allow-host': {
    type: 'string',
    multiple: true,
    env: 'MUSTER_ALLOW_HOST',
    kind: 'list',
    arg: '<name>',
    help: 'also answer requests for this Host name (repeatable; default: only localhost\nand loopback addresses when bound to loopback, any Host otherwise; given with a\nnon-loopback --host, only localhost, IP addresses and the names listed)',
    check: (name) => (name.length === 0 || /[\s/?#@]/.test(name) ? `takes a host name or address (or *), got "${name}"` : null),
  },
  'allow-origin': {
    type: 'string',
    multiple: true,
    env: 'MUSTER_ALLOW_ORIGIN',
    kind: 'list',
    arg: '<origin>',
    help: 'let pages of this origin (e.g. https://table.example:8443) open the ws (repeatable;\ndefault: only the service\'s own pages and non-browser clients)',
    check: (origin) => (origin !== '*' && !/^https?:\/\/[^/?#\s]+$/i.test(origin) ? `takes an origin like http://host:port (no path), or *; got "${origin}"` : null),
  },
  'tuio': {
    type: 'string',
    env: 'MUSTER_TUIO',
    kind: 'string',
    arg: '<host:port>',
    help: 'also send the tracked tags as TUIO 1.1 (/tuio/2Dobj over OSC/UDP) to this\naddress, for reacTIVision clients (e.g. --tuio localhost:3333)',
  },
  'publish': {
    type: 'string',
    env: 'MUSTER_PUBLISH',
    kind: 'string',
    arg: '<url>',
    help: 'also publish the live state to this MQTT broker (mqtt://, mqtts://, ws://, wss://;\nuser:password@ for a credential, best in MUSTER_PUBLISH or the config file) under\nmuster/<table>/..., for views and `muster tables --mqtt` through the broker',
  },
  'publish-table': {
    type: 'string',
    env: 'MUSTER_PUBLISH_TABLE',
    kind: 'string',
    arg: '<id>',
    help: 'the table\'s id in the broker\'s topics (muster/<id>/...; letters, digits, - _ .;\ndefault: this machine\'s host name)',
    check: (v) => tableIdProblem(v),
  },
  'no-build': {
    type: 'boolean',
    env: 'MUSTER_NO_BUILD',
    kind: 'boolean',
    help: 'do not build the views when they are missing',
  },
  'https': {
    type: 'boolean',
    env: 'MUSTER_HTTPS',
    kind: 'boolean',
    help: 'serve https and wss with a self-signed certificate made on first use and kept in\n<data>/tls/ (or --tls-cert and --tls-key): phones need https to send their camera',
  },
  'tls-cert': {
    type: 'string',
    env: 'MUSTER_TLS_CERT',
    kind: 'path',
    arg: '<file>',
    help: 'certificate (PEM, the chain after it) for https; with --tls-key, implies --https',
  },
  'tls-key': {
    type: 'string',
    env: 'MUSTER_TLS_KEY',
    kind: 'path',
    arg: '<file>',
    help: 'private key (PEM) of --tls-cert',
  },
  'log-format': {
    type: 'string',
    env: 'MUSTER_LOG_FORMAT',
    kind: 'choice',
    arg: '<f>',
    choices: ['text', 'json', 'auto'],
    help: 'server log lines on stderr: auto (default: json unless stderr is a terminal), text\n(time, level, name, message), or json (one object a line)',
  },
  'camera': {
    type: 'string',
    env: 'MUSTER_CAMERA',
    kind: 'string',
    arg: '<spec>',
    help: "camera mode: /dev/videoN, rtsp:// or http:// URL, a video file or a folder of frames\nor 'phone' (open /phone.html?token=… on the phone: it sends its camera over the ws /camera)",
  },
  'camera-size': {
    type: 'string',
    env: 'MUSTER_CAMERA_SIZE',
    kind: 'string',
    arg: '<WxH>',
    help: "webcam capture size asked of the camera, e.g. 1920x1080 ('muster cameras' lists the sizes)",
    check: (v) => (/^\d{1,5}[x×]\d{1,5}$/i.test(v.trim()) ? null : `must be WIDTHxHEIGHT in pixels, e.g. 1920x1080, got "${v}"`),
  },
  'camera-fps': {
    type: 'string',
    env: 'MUSTER_CAMERA_FPS',
    kind: 'number',
    arg: '<n>',
    min: 0,
    max: 1000,
    help: 'webcam frame rate asked of the camera, e.g. 30 (--fps never goes to a camera)',
  },
  'camera-format': {
    type: 'string',
    env: 'MUSTER_CAMERA_FORMAT',
    kind: 'choice',
    arg: '<f>',
    choices: ['mjpeg', 'yuyv', 'h264'],
    help: "the webcam's own encoding: mjpeg (most USB webcams' only way to 1080p at 30 fps),\nyuyv (raw) or h264; macOS cameras take yuyv only",
  },
  'table': {
    type: 'string',
    env: 'MUSTER_TABLE',
    kind: 'path',
    arg: '<file>',
    help: 'table profile JSON (camera mode; saved in the data directory, so needed once)',
  },
  'roster': {
    type: 'string',
    env: 'MUSTER_ROSTER',
    kind: 'path',
    arg: '<file>',
    help: 'army file YAML/JSON (camera mode; saved likewise)',
  },
  'lens': {
    type: 'string',
    env: 'MUSTER_LENS',
    kind: 'path',
    arg: '<file>',
    help: "lens calibration from 'muster calibrate lens' (camera mode; saved likewise): corners\nare undistorted before they are mapped to the table",
  },
  'projector': {
    type: 'string',
    env: 'MUSTER_PROJECTOR',
    kind: 'path',
    arg: '<file>',
    help: "projector calibration from 'muster calibrate projector' (camera mode; saved\nlikewise): served at /api/projector, used by /projector.html",
  },
} as const satisfies Readonly<Record<string, StartOptionDecl>>;

/** The table as a list, each with its name. */
export const START_OPTIONS: readonly StartOptionSpec[] = Object.entries(START_OPTION_TABLE).map(([name, decl]): StartOptionSpec => ({ name, ...decl }));

/** What is wrong with one text value of an option (flag, environment or config file), or null. */
export function problemWith(spec: StartOptionSpec, text: string): string | null {
  switch (spec.kind) {
    case 'integer': {
      const n = Number(text);
      if (text.trim() === '' || !Number.isInteger(n) || n < (spec.min ?? -Infinity) || n > (spec.max ?? Infinity)) return `must be an integer ${spec.min}..${spec.max}, got "${text}"`;
      return null;
    }
    case 'number': {
      const n = Number(text);
      if (text.trim() === '' || !Number.isFinite(n) || n <= (spec.min ?? -Infinity) || n > (spec.max ?? Infinity)) return `must be a number in (${spec.min}, ${spec.max}], got "${text}"`;
      return null;
    }
    case 'choice': {
      const choices = spec.choices ?? [];
      if (choices.includes(text)) return null;
      const list = choices.length === 2 ? `${choices[0]} or ${choices[1]}` : `one of ${choices.join(', ')}`;
      return `must be ${list}, got "${text}"`;
    }
    case 'path':
    case 'string':
      if (text.trim() === '') return 'must not be empty';
      return spec.check ? spec.check(text) : null;
    case 'list':
      return spec.check ? spec.check(text) : null;
    case 'boolean':
      return null;
  }
}

/** Options that are one setting: the highest level giving either wins; one level giving both is an error. */
export const EXCLUSIVE_START_OPTIONS: readonly (readonly string[])[] = [['token', 'token-file']];

export function startOption(name: string): StartOptionSpec {
  const spec = START_OPTIONS.find((o) => o.name === name);
  if (!spec) throw new Error(`no start option "${name}"`);
  return spec;
}

/** The `node:util` parseArgs declaration of these options (strings, repeatable lists, booleans). */
export function startParseArgsOptions(): Record<string, { type: 'string' | 'boolean'; multiple?: boolean }> {
  const out: Record<string, { type: 'string' | 'boolean'; multiple?: boolean }> = {};
  for (const o of START_OPTIONS) out[o.name] = o.multiple ? { type: o.type, multiple: true } : { type: o.type };
  return out;
}
