/**
 * Read-only REST routes: the live state and the documents in use.
 *   GET /health  /snapshot  /roster  /table-profile  /terrain  /calibration  /log?from=&limit=
 */
import type { Router } from 'express';
import type { GameLogEntry } from '@muster/protocol';
import type { ServiceBackend } from '../backend.ts';
import { sendError } from '../sendError.ts';
import { sendLogReadError } from '../sendLogReadError.ts';

/** `clients`: connected ws clients, reported in health. */
export function addStateRoutes(api: Router, backend: ServiceBackend, clients: () => number): void {
  api.get('/health', (_req, res) => {
    res.json({ ...backend.state().health, clients: clients() });
  });
  api.get('/snapshot', (_req, res) => {
    res.json(backend.state());
  });
  api.get('/roster', (_req, res) => {
    res.json({ roster: backend.roster(), summary: backend.state().roster });
  });
  api.get('/table-profile', (_req, res) => {
    res.json({ profile: backend.tableProfile(), summary: backend.state().profile });
  });
  api.get('/terrain', (_req, res) => {
    res.json(backend.state().tableState.terrain);
  });
  api.get('/calibration', (_req, res) => {
    res.json(backend.calibration() ?? null);
  });
  // Old entries are read from disk without blocking the event loop; when too many such reads are under
  // way the backend refuses (an error with `retryAfterS`): 503 with Retry-After.
  api.get('/log', async (req, res) => {
    const from = Number(req.query.from ?? 0);
    const limit = Number(req.query.limit ?? 1000);
    if (!Number.isInteger(from) || from < 0 || !Number.isInteger(limit) || limit < 1 || limit > 10_000) {
      sendError(res, 'invalid-message', 'from must be an integer ≥ 0 and limit an integer in 1..10000');
      return;
    }
    let entries: readonly GameLogEntry[];
    try {
      entries = await backend.log(from, limit);
    } catch (err) {
      sendLogReadError(res, err, 'GET /api/log');
      return;
    }
    res.json({ from, entries });
  });
}
