/**
 * Operator actions over REST: POST /actions takes any operator message of the ws protocol
 * (set-unit-status, ...); PUT /terrain replaces the terrain (a `set-terrain` action). Answered with the
 * ws protocol's ack or error.
 */
import type { RequestHandler, Response, Router } from 'express';
import { isOperatorMessage, parseClientMessage, validateClientMessage, type ClientMessage, type Parsed } from '@muster/protocol';
import { ActionError, type ServiceBackend } from '../backend.ts';
import { bodyText, readJsonBody, textBody } from '../requestBody.ts';
import { sendError } from '../sendError.ts';

function perform(backend: ServiceBackend, res: Response, parsed: Parsed<ClientMessage>): void {
  if (!parsed.ok) {
    sendError(res, parsed.code, parsed.message);
    return;
  }
  const msg = parsed.value;
  if (!isOperatorMessage(msg)) {
    sendError(res, 'invalid-message', `"${msg.type}" is not an operator action`);
    return;
  }
  try {
    const result = backend.perform(msg);
    res.json({ type: 'ack', action: msg.type, ...(msg.requestId !== undefined ? { requestId: msg.requestId } : {}), ...(result !== undefined ? { result } : {}) });
  } catch (err) {
    if (err instanceof ActionError) sendError(res, err.code, err.message);
    else throw err;
  }
}

export function addActionRoutes(api: Router, backend: ServiceBackend, operatorOnly: RequestHandler): void {
  api.put('/terrain', operatorOnly, textBody, (req, res) => {
    // Depth is checked before parsing; the parsed value is validated as is (never re-serialised first).
    const body = readJsonBody(req, res, 'body is not valid JSON');
    if (!body) return;
    perform(backend, res, validateClientMessage({ type: 'set-terrain', terrain: body.value }));
  });
  api.post('/actions', operatorOnly, textBody, (req, res) => {
    perform(backend, res, parseClientMessage(bodyText(req)));
  });
}
