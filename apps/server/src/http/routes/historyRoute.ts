/**
 * `GET /api/history?unit=<id>` (or `stand=<id>`): where a unit's stands stood, from the game log, so a
 * dispute ("where was it before it moved?") is settled by the record. For each stand: its pose at the
 * moment asked about, its last move up to then (from where, to where, the path), and where it stood
 * when that turn began. Read-only, for every viewer (like `GET /api/log`).
 *
 *   at=<ISO time | ms since the epoch>   the moment (default: the newest entry; in a replay, where it is)
 *   index=<n>                             …or the moment after log entry n
 *   gapS=<s>                              a pause this long between pose entries ends a move (default 3)
 *
 * `GET /api/ghosts` (same `at`/`index`/`gapS`): the views' ghosts, every stand on the table whose last
 * move started from somewhere on the table, with that earlier pose (`from`) and its pose now (`to`). One
 * small answer for the whole roster, so a view asks again only when the stands move.
 *
 * The positions are read from the log through `backend.log` (old entries from disk, off the main thread),
 * once: an index kept here is brought up to date on each request.
 */
import type { Router } from 'express';
import type { GameLogEntry } from '@muster/protocol';
import { createPositionHistory, type StandEvent } from '../../replay/positionHistory.ts';
import type { ServiceBackend } from '../backend.ts';
import { sendError } from '../sendError.ts';
import { sendLogReadError } from '../sendLogReadError.ts';

const PAGE = 1000;

interface RosterLike {
  readonly units?: readonly { readonly id: string; readonly name?: string; readonly side?: string; readonly stands?: readonly { readonly id: string }[] }[];
  readonly commanders?: readonly { readonly id: string; readonly name?: string; readonly side?: string; readonly stand?: { readonly id: string } | null }[];
}

/** The stands of a unit (or a commander's stand), from the roster in use; null when there is no such unit. */
function unitStands(roster: unknown, unitId: string): { name: string | null; side: string | null; standIds: string[] } | null {
  const r = (roster ?? {}) as RosterLike;
  const u = r.units?.find((x) => x.id === unitId);
  if (u) return { name: u.name ?? null, side: u.side ?? null, standIds: (u.stands ?? []).map((s) => s.id) };
  const c = r.commanders?.find((x) => x.id === unitId);
  if (c) return { name: c.name ?? null, side: c.side ?? null, standIds: c.stand ? [c.stand.id] : [] };
  return null;
}

function knownStand(roster: unknown, standId: string): string | null {
  const r = (roster ?? {}) as RosterLike;
  for (const u of r.units ?? []) if ((u.stands ?? []).some((s) => s.id === standId)) return u.id;
  for (const c of r.commanders ?? []) if (c.stand?.id === standId) return c.id;
  return null;
}

const event = (e: StandEvent | null): unknown =>
  e === null ? null : { index: e.index, time: new Date(e.timeMs).toISOString(), timeMs: e.timeMs, turn: e.turn, pose: e.pose };

/** Every stand id in the roster with its unit (or commander) id. */
function rosterStands(roster: unknown): { standId: string; unitId: string }[] {
  const r = (roster ?? {}) as RosterLike;
  return [
    ...(r.units ?? []).flatMap((u) => (u.stands ?? []).map((s) => ({ standId: s.id, unitId: u.id }))),
    ...(r.commanders ?? []).flatMap((c) => (c.stand ? [{ standId: c.stand.id, unitId: c.id }] : [])),
  ];
}

type Moment = { gapS: number; atMs?: number; index?: number };

/** `gapS`, `at` and `index` from a query; a sentence saying what to give instead when one is bad. */
function momentQuery(text: (name: string) => string | undefined): Moment | string {
  const gapText = text('gapS');
  const gapS = gapText === undefined ? 3 : Number(gapText);
  if (!Number.isFinite(gapS) || gapS <= 0 || gapS > 86_400) return `gapS must be a number of seconds in (0, 86400] (got "${gapText}")`;
  const atText = text('at');
  const indexText = text('index');
  if (atText !== undefined && indexText !== undefined) return 'give at=<time> or index=<log index>, not both';
  if (atText !== undefined) {
    const atMs = /^\d+$/.test(atText) ? Number(atText) : /^\d{4}-\d{2}-\d{2}/.test(atText) ? Date.parse(atText) : NaN;
    if (!Number.isFinite(atMs)) return `at must be an ISO time (2026-11-24T15:04:05Z) or ms since the epoch (got "${atText}")`;
    return { gapS, atMs };
  }
  if (indexText !== undefined) {
    if (!/^\d+$/.test(indexText)) return `index must be a log index, a whole number ≥ 0 (got "${indexText}")`;
    return { gapS, index: Number(indexText) };
  }
  return { gapS };
}

export function addHistoryRoute(api: Router, backend: ServiceBackend): void {
  const history = createPositionHistory();
  // One catch-up at a time; later requests wait for it and then read what it added.
  let catchingUp: Promise<void> = Promise.resolve();
  const catchUp = (): Promise<void> => {
    const run = catchingUp.then(async () => {
      for (;;) {
        const page: readonly GameLogEntry[] = await backend.log(history.lastIndex() + 1, PAGE);
        if (page.length === 0) return;
        for (const e of page) history.add(e);
      }
    });
    catchingUp = run.catch(() => {});
    return run;
  };

  api.get('/history', async (req, res) => {
    const q = req.query as Record<string, unknown>;
    const text = (name: string): string | undefined => (typeof q[name] === 'string' ? (q[name] as string) : undefined);
    const unit = text('unit');
    const stand = text('stand');
    if ((unit === undefined) === (stand === undefined)) {
      sendError(res, 'invalid-message', 'give unit=<unit id> or stand=<stand id> (GET /api/roster lists them), and optionally at=<ISO time or ms> or index=<log index>');
      return;
    }
    const gapText = text('gapS');
    const gapS = gapText === undefined ? 3 : Number(gapText);
    if (!Number.isFinite(gapS) || gapS <= 0 || gapS > 86_400) {
      sendError(res, 'invalid-message', `gapS must be a number of seconds in (0, 86400] (got "${gapText}")`);
      return;
    }
    const atText = text('at');
    const indexText = text('index');
    if (atText !== undefined && indexText !== undefined) {
      sendError(res, 'invalid-message', 'give at=<time> or index=<log index>, not both');
      return;
    }
    let atMs: number | undefined;
    if (atText !== undefined) {
      atMs = /^\d+$/.test(atText) ? Number(atText) : /^\d{4}-\d{2}-\d{2}/.test(atText) ? Date.parse(atText) : NaN;
      if (!Number.isFinite(atMs)) {
        sendError(res, 'invalid-message', `at must be an ISO time (2026-11-24T15:04:05Z) or ms since the epoch (got "${atText}")`);
        return;
      }
    }
    if (indexText !== undefined && !/^\d+$/.test(indexText)) {
      sendError(res, 'invalid-message', `index must be a log index, a whole number ≥ 0 (got "${indexText}")`);
      return;
    }

    const roster = backend.roster();
    let standIds: string[];
    let about: Record<string, unknown>;
    if (unit !== undefined) {
      const found = unitStands(roster, unit);
      if (!found) {
        sendError(res, 'not-found', `no unit or commander "${unit}" in the roster (GET /api/roster lists them)`);
        return;
      }
      standIds = found.standIds;
      about = { unit: { id: unit, name: found.name, side: found.side } };
    } else {
      const owner = knownStand(roster, stand!);
      if (owner === null) {
        sendError(res, 'not-found', `no stand "${stand}" in the roster (GET /api/roster lists them)`);
        return;
      }
      standIds = [stand!];
      about = { stand: stand, unitId: owner };
    }

    try {
      await catchUp();
    } catch (err) {
      sendLogReadError(res, err, 'GET /api/history');
      return;
    }

    const atIndex = atMs !== undefined ? history.indexAtTime(atMs) : indexText !== undefined ? Number(indexText) : (backend.logCursor?.() ?? history.lastIndex());
    const moment = history.momentAt(atIndex);
    const stands = standIds.map((id) => {
      const h = history.stand(id, atIndex, { gapMs: gapS * 1000 });
      return {
        standId: id,
        onTable: h.current !== null && h.current.pose !== null,
        current: event(h.current),
        lastMove: h.lastMove && {
          from: event(h.lastMove.from),
          to: event(h.lastMove.to),
          started: event(h.lastMove.started),
          steps: h.lastMove.steps,
          path: h.lastMove.path.map(event),
        },
        atTurnStart: h.atTurnStart,
      };
    });
    res.json({
      ...about,
      at: moment ? { index: moment.index, time: new Date(moment.timeMs).toISOString(), timeMs: moment.timeMs, turn: moment.turn } : null,
      gapS,
      stands,
    });
  });

  api.get('/ghosts', async (req, res) => {
    const q = req.query as Record<string, unknown>;
    const moment = momentQuery((name) => (typeof q[name] === 'string' ? (q[name] as string) : undefined));
    if (typeof moment === 'string') {
      sendError(res, 'invalid-message', moment);
      return;
    }
    try {
      await catchUp();
    } catch (err) {
      const retryAfterS = (err as { retryAfterS?: unknown }).retryAfterS;
      if (typeof retryAfterS === 'number') res.setHeader('Retry-After', String(Math.max(1, Math.ceil(retryAfterS))));
      sendError(res, 'internal', typeof retryAfterS === 'number' ? `too many reads of old log entries at once; try again in ${retryAfterS} s` : 'reading the game log failed (see the server log)', typeof retryAfterS === 'number' ? 503 : 500);
      return;
    }
    const atIndex = moment.atMs !== undefined ? history.indexAtTime(moment.atMs) : (moment.index ?? backend.logCursor?.() ?? history.lastIndex());
    const at = history.momentAt(atIndex);
    const ghosts = rosterStands(backend.roster()).flatMap(({ standId, unitId }) => {
      const h = history.stand(standId, atIndex, { gapMs: moment.gapS * 1000, maxPath: 1 });
      // Only a stand on the table now, whose last move began on the table (one that came on has no "before").
      if (h.current === null || h.current.pose === null || h.lastMove === null || h.lastMove.from === null) return [];
      return [{ standId, unitId, from: event(h.lastMove.from), to: event(h.lastMove.to) }];
    });
    res.json({ at: at ? { index: at.index, time: new Date(at.timeMs).toISOString(), timeMs: at.timeMs, turn: at.turn } : null, gapS: moment.gapS, ghosts });
  });
}
