/**
 * Request bodies of the REST API: read as text whatever their content type (up to the protocol's limit),
 * then parsed as JSON by the route that takes them, refusing nesting deeper than `LIMITS.maxJsonDepth`
 * before parsing (a 400, never a stack overflow further on).
 */
import express, { type Request, type Response } from 'express';
import { LIMITS, parseClientJson } from '@muster/protocol';
import { sendError } from './sendError.ts';

/** Middleware: the body as text, any content type, at most `LIMITS.maxRestBodyBytes`. */
export const textBody = express.text({ type: () => true, limit: LIMITS.maxRestBodyBytes });

/** The body `textBody` read ('' without one). */
export function bodyText(req: Request): string {
  return typeof req.body === 'string' ? req.body : '';
}

/**
 * The body as JSON; when it is not, a `bad-json` error with this message is sent (`invalid-message` when
 * it nests too deep) and null returned.
 */
export function readJsonBody(req: Request, res: Response, badJsonMessage: string): { readonly value: unknown } | null {
  const parsed = parseClientJson(bodyText(req));
  if (parsed.ok) return { value: parsed.value };
  sendError(res, parsed.code, parsed.code === 'bad-json' ? badJsonMessage : `body ${parsed.message}`);
  return null;
}
