/**
 * The projector calibration: GET /projector (null without one), PUT /projector (operator: replace it,
 * validated and saved atomically; 404 when the service keeps none).
 */
import type { RequestHandler, Router } from 'express';
import { ProjectorCalibrationError } from '@muster/vision';
import type { ProjectorCalibrationSource } from '../../persist/projectorCalibrationStore.ts';
import { readJsonBody, textBody } from '../requestBody.ts';
import { sendError } from '../sendError.ts';

export function addProjectorRoutes(api: Router, projector: ProjectorCalibrationSource | undefined, operatorOnly: RequestHandler): void {
  api.get('/projector', (_req, res) => {
    res.json(projector?.get() ?? null);
  });
  api.put('/projector', operatorOnly, textBody, (req, res) => {
    if (!projector) {
      sendError(res, 'not-found', 'this service keeps no projector calibration');
      return;
    }
    const body = readJsonBody(req, res, 'body is not valid JSON (send the file muster calibrate projector wrote)');
    if (!body) return;
    try {
      res.json(projector.put(body.value, 'request body'));
    } catch (err) {
      if (err instanceof ProjectorCalibrationError) sendError(res, 'invalid-message', err.message);
      else throw err;
    }
  });
}
