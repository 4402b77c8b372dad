/**
 * A real Mosquitto broker for the tests (Debian's `mosquitto` package, `/usr/sbin/mosquitto`): its own
 * generated config on free loopback ports, a plain MQTT listener and a websockets listener, optionally
 * users and ACLs. Started and stopped by the test; never the system's service.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import mqtt, { type MqttClient } from 'mqtt';

export const MOSQUITTO = ['/usr/sbin/mosquitto', '/usr/bin/mosquitto'].find((p) => existsSync(p)) ?? 'mosquitto';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const c = createConnection({ host: '127.0.0.1', port });
    c.once('connect', () => {
      c.destroy();
      resolve(true);
    });
    c.once('error', () => resolve(false));
  });
}

export interface BrokerUser {
  readonly name: string;
  readonly password: string;
  /** ACL lines for this user, e.g. `topic readwrite muster/#`. */
  readonly acl: readonly string[];
}

export interface MosquittoOptions {
  /** Reuse these ports (a restart on the same address). */
  readonly mqttPort?: number;
  readonly wsPort?: number;
  /** With users: anonymous clients are refused and each user gets only its ACL lines. */
  readonly users?: readonly BrokerUser[];
  /** ACL lines for every user, e.g. `pattern readwrite muster/%u/#` (written before the users' blocks). */
  readonly aclPatterns?: readonly string[];
}

export class Mosquitto {
  private exited: Promise<void>;
  readonly stderr: string[] = [];

  private constructor(
    private readonly child: ChildProcess,
    readonly mqttPort: number,
    readonly wsPort: number,
  ) {
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
    child.stderr?.on('data', (d: Buffer) => this.stderr.push(d.toString()));
    child.stdout?.on('data', (d: Buffer) => this.stderr.push(d.toString()));
  }

  /** The broker's process id (for its CPU time in the bench). */
  get pid(): number {
    return this.child.pid!;
  }

  get mqttUrl(): string {
    return `mqtt://127.0.0.1:${this.mqttPort}`;
  }

  get wsUrl(): string {
    return `ws://127.0.0.1:${this.wsPort}`;
  }

  static async start(dir: string, options: MosquittoOptions = {}): Promise<Mosquitto> {
    const mqttPort = options.mqttPort ?? (await freePort());
    const wsPort = options.wsPort ?? (await freePort());
    const lines = [
      // Run as whoever runs the tests (as root, Mosquitto would switch to the "mosquitto" user, which
      // cannot read the test's private temporary folder).
      `user ${userInfo().username}`,
      'per_listener_settings false',
      'persistence false',
      'log_dest stderr',
      'log_type error',
      'log_type warning',
      `listener ${mqttPort} 127.0.0.1`,
      'protocol mqtt',
      `listener ${wsPort} 127.0.0.1`,
      'protocol websockets',
    ];
    if (options.users && options.users.length > 0) {
      const passwordFile = join(dir, 'passwords');
      writeFileSync(passwordFile, '');
      for (const u of options.users) {
        const r = spawnSync('mosquitto_passwd', ['-b', passwordFile, u.name, u.password], { encoding: 'utf8' });
        if (r.status !== 0) throw new Error(`mosquitto_passwd failed: ${r.stderr || r.error?.message}`);
      }
      const aclFile = join(dir, 'acl');
      writeFileSync(aclFile, [...(options.aclPatterns ?? []), '', ...options.users.map((u) => [`user ${u.name}`, ...u.acl, ''].join('\n'))].join('\n'));
      lines.push('allow_anonymous false', `password_file ${passwordFile}`, `acl_file ${aclFile}`);
    } else lines.push('allow_anonymous true');
    const config = join(dir, `mosquitto-${mqttPort}.conf`);
    writeFileSync(config, lines.join('\n') + '\n');
    const child = spawn(MOSQUITTO, ['-c', config], { stdio: ['ignore', 'pipe', 'pipe'] });
    const broker = new Mosquitto(child, mqttPort, wsPort);
    let exited = false;
    void broker.exited.then(() => (exited = true));
    const deadline = Date.now() + 15_000;
    while (!((await portOpen(mqttPort)) && (await portOpen(wsPort)))) {
      if (exited) throw new Error(`mosquitto exited at start: ${broker.stderr.join('')}`);
      if (Date.now() > deadline) {
        await broker.stop();
        throw new Error(`mosquitto did not listen on ${mqttPort}/${wsPort} within 15 s: ${broker.stderr.join('')}`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    return broker;
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 5000);
    await this.exited;
    clearTimeout(timer);
  }
}

export interface Received {
  readonly topic: string;
  readonly text: string;
  readonly retain: boolean;
}

/** A plain MQTT.js subscriber that records every message, with waits on conditions (never on durations). */
export class Subscriber {
  readonly received: Received[] = [];
  private waiters: (() => void)[] = [];

  private constructor(readonly client: MqttClient) {
    client.on('message', (topic, payload, packet) => {
      this.received.push({ topic, text: payload.toString('utf8'), retain: packet.retain });
      for (const w of this.waiters.splice(0)) w();
    });
  }

  static async connect(url: string, topics: string[], options: { username?: string; password?: string; reconnectPeriod?: number } = {}): Promise<Subscriber> {
    const client = await mqtt.connectAsync(url, { reconnectPeriod: options.reconnectPeriod ?? 0, ...options });
    const sub = new Subscriber(client);
    if (topics.length > 0) await client.subscribeAsync(topics, { qos: 1 });
    return sub;
  }

  /** The first message from index `from` on that satisfies `match`; waits for it (up to `timeoutMs`). */
  async next(match: (r: Received) => boolean, from = 0, timeoutMs = 15_000): Promise<{ received: Received; index: number }> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const i = this.received.findIndex((r, k) => k >= from && match(r));
      if (i >= 0) return { received: this.received[i]!, index: i };
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no matching MQTT message within ${timeoutMs} ms (got ${this.received.length}: ${[...new Set(this.received.map((r) => r.topic))].join(', ')})`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  async close(): Promise<void> {
    await this.client.endAsync(true);
  }
}
