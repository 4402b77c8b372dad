/**
 * The answer to a failed read of old game-log entries, for every route that reads them: 503 with
 * Retry-After when too many such reads are under way (the error carries `retryAfterS`), else 500 with
 * the cause in the server log only (its message names the data directory's file, not for any client).
 */
import type { Response } from 'express';
import { serverLog } from '../log/logger.ts';
import { sendError } from './sendError.ts';

export function sendLogReadError(res: Response, err: unknown, route: string): void {
  const retryAfterS = (err as { retryAfterS?: unknown } | null)?.retryAfterS;
  if (typeof retryAfterS === 'number') {
    res.setHeader('Retry-After', String(Math.max(1, Math.ceil(retryAfterS))));
    sendError(res, 'internal', `too many reads of old log entries at once; try again in ${retryAfterS} s`, 503);
    return;
  }
  serverLog.error(`${route}: ${(err as Error | null)?.message ?? String(err)}`);
  sendError(res, 'internal', 'reading the game log failed (see the server log)');
}
