/**
 * REST errors: `{ type: 'error', code, message }` (the ws protocol's error message) with the HTTP status
 * of its code.
 */
import type { Response } from 'express';
import type { ErrorCode, ErrorMessage } from '@muster/protocol';

const STATUS_BY_CODE: Record<ErrorCode, number> = {
  'bad-json': 400,
  'too-large': 413,
  'invalid-message': 400,
  'unsupported-version': 400,
  forbidden: 403,
  'not-found': 404,
  conflict: 409,
  internal: 500,
  'rate-limited': 429,
};

export function sendError(res: Response, code: ErrorCode, message: string, status = STATUS_BY_CODE[code]): void {
  res.status(status).json({ type: 'error', code, message } satisfies ErrorMessage);
}
