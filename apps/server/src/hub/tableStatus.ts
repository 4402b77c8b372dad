/**
 * One poll of one table's service: GET /api/health and /api/snapshot with a short timeout, reduced to
 * what the hub shows. A table that does not answer in time, refuses, or answers nonsense is "down" with
 * the reason; the hub never waits longer than the timeout for any table (all are polled at once).
 */
import { get as httpGet } from 'node:http';
import { get as httpsGet } from 'node:https';
import type { HubTable } from './tableList.ts';

export interface TableStatus {
  readonly name: string;
  readonly url: string;
  readonly up: boolean;
  /** Why it is down (up: absent). */
  readonly problem?: string;
  /** health.status: ok, degraded, … */
  readonly health?: string;
  readonly rulesetId?: string;
  readonly turn?: number;
  /** health.camera.state (streaming, reconnecting, …); absent in the demo. */
  readonly cameraState?: string;
  /** profile.source: demo-truth, demo-frames, camera. */
  readonly source?: string;
  readonly trackedStands?: number;
  readonly warnings?: readonly string[];
}

/** A snapshot holds the whole evaluation; more than this is not a Muster service. */
const MAX_BODY_BYTES = 32 * 1024 * 1024;

function getJson(url: string, timeoutMs: number): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const https = url.startsWith('https:');
    // A table's certificate is usually its own self-signed one: the hub checks liveness, not identity.
    const req = (https ? httpsGet : httpGet)(url, { timeout: timeoutMs, ...(https ? { rejectUnauthorized: false } : {}) }, (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        reject(new Error(`HTTP ${res.statusCode}`));
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        size += c.length;
        if (size > MAX_BODY_BYTES) req.destroy(new Error('answer too large'));
        else chunks.push(c);
      });
      res.on('end', () => {
        try {
          resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
        } catch {
          reject(new Error('answer is not JSON'));
        }
      });
      res.on('error', reject);
    });
    const timer = setTimeout(() => req.destroy(new Error(`no answer in ${timeoutMs} ms`)), timeoutMs);
    req.on('close', () => clearTimeout(timer));
    req.on('error', reject);
  });
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

export async function pollTable(table: HubTable, timeoutMs: number): Promise<TableStatus> {
  const base = { name: table.name, url: table.url };
  let health: Record<string, unknown>;
  let snapshot: Record<string, unknown>;
  try {
    const [h, s] = await Promise.all([getJson(`${table.url}/api/health`, timeoutMs), getJson(`${table.url}/api/snapshot`, timeoutMs)]);
    if (h === null || typeof h !== 'object' || typeof (h as { status?: unknown }).status !== 'string') throw new Error('/api/health is not a Muster health answer');
    health = h as Record<string, unknown>;
    snapshot = s !== null && typeof s === 'object' ? (s as Record<string, unknown>) : {};
  } catch (err) {
    return { ...base, up: false, problem: (err as Error).message };
  }
  const camera = health.camera as Record<string, unknown> | undefined;
  const evaluation = snapshot.evaluation as Record<string, unknown> | undefined;
  const profile = snapshot.profile as Record<string, unknown> | undefined;
  const warnings = Array.isArray(health.warnings) ? health.warnings.filter((w): w is string => typeof w === 'string') : [];
  const out: TableStatus = {
    ...base,
    up: true,
    health: str(health.status),
    rulesetId: str(evaluation?.rulesetId),
    turn: num(snapshot.turn),
    cameraState: str(camera?.state),
    source: str(profile?.source),
    trackedStands: num(health.trackedStands),
    warnings,
  };
  return Object.fromEntries(Object.entries(out).filter(([, v]) => v !== undefined)) as unknown as TableStatus;
}

export function pollTables(tables: readonly HubTable[], timeoutMs: number): Promise<TableStatus[]> {
  return Promise.all(tables.map((t) => pollTable(t, timeoutMs)));
}
