/**
 * The REST API under `/api` (see `createServer.ts` for the list): read routes, the projector calibration,
 * operator actions and the newest frame; anything else is a JSON 404. Operator calls carry
 * `Authorization: Bearer <token>`.
 */
import express, { type Router } from 'express';
import type { GrayFrame } from '@muster/vision';
import type { ProjectorCalibrationSource } from '../persist/projectorCalibrationStore.ts';
import type { ServiceBackend } from './backend.ts';
import { requireOperator } from './requireOperator.ts';
import { addActionRoutes } from './routes/actionRoutes.ts';
import { addFrameRoute } from './routes/frameRoute.ts';
import { addHistoryRoute } from './routes/historyRoute.ts';
import { addReplayRoutes } from '../replay/replayRoutes.ts';
import { addProjectorRoutes } from './routes/projectorRoutes.ts';
import { addStateRoutes } from './routes/stateRoutes.ts';
import { addRulesetFieldsRoute } from './routes/rulesetFieldsRoute.ts';
import { sendError } from './sendError.ts';

export interface ApiOptions {
  readonly backend: ServiceBackend;
  readonly operatorToken: string;
  /** Connected ws clients, for health. */
  readonly clients: () => number;
  readonly projector: ProjectorCalibrationSource | undefined;
  readonly latestFrame: (() => GrayFrame | null) | undefined;
}

export function createApiRouter(options: ApiOptions): Router {
  const { backend } = options;
  const operatorOnly = requireOperator(options.operatorToken);
  const api = express.Router();
  addStateRoutes(api, backend, options.clients);
  addProjectorRoutes(api, options.projector, operatorOnly);
  addActionRoutes(api, backend, operatorOnly);
  addFrameRoute(api, options.latestFrame);
  addHistoryRoute(api, backend);
  addReplayRoutes(api, backend, operatorOnly);
  addRulesetFieldsRoute(api);
  api.use((_req, res) => sendError(res, 'not-found', 'no such API endpoint'));
  return api;
}
