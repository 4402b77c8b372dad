/**
 * The last express handler: errors from body parsing (too large, bad encoding) and bugs are answered
 * with a JSON error, never a stack; bugs are logged.
 */
import type { NextFunction, Request, Response } from 'express';
import { LIMITS } from '@muster/protocol';
import { sendError } from './sendError.ts';
import { serverLog } from '../log/logger.ts';

export function jsonErrorHandler(err: unknown, _req: Request, res: Response, _next: NextFunction): void {
  const e = err as { type?: string; status?: number };
  if (e.type === 'entity.too.large') sendError(res, 'too-large', `body larger than ${LIMITS.maxRestBodyBytes} bytes`);
  else if (typeof e.status === 'number' && e.status >= 400 && e.status < 500) sendError(res, 'invalid-message', 'malformed request', e.status);
  else {
    serverLog.error('request failed:', err);
    sendError(res, 'internal', 'internal error (see the server log)');
  }
}
