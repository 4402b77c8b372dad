/**
 * `GET /api/replay`: the timeline of a replay (turns and actions, each with its position) and where it is;
 * `POST /api/replay` (operator): `{ "action": "pause" }`, `{ "action": "play", "speed": 2 }`,
 * `{ "action": "seek", "position": n }` (or `"index": <log index>`, or `"turn": n`: where that turn begins).
 * Both only choose the moment shown: the record is never written. On the live service both answer 404
 * ("not a replay"), which is how a view tells a replay from a live game.
 */
import type { RequestHandler, Response, Router } from 'express';
import { readJsonBody, textBody } from '../http/requestBody.ts';
import type { ServiceBackend } from '../http/backend.ts';
import { sendError } from '../http/sendError.ts';
import type { ReplayControl } from './replayBackend.ts';
import { replaySummary, type ReplaySummary } from './replaySummary.ts';

interface ReplayLike {
  replayControl(): ReplayControl | null;
  log(fromIndex: number, limit: number): unknown;
}

function controlOf(backend: ServiceBackend): ReplayControl | null {
  const b = backend as Partial<ReplayLike>;
  return typeof b.replayControl === 'function' ? b.replayControl() : null;
}

export function addReplayRoutes(api: Router, backend: ServiceBackend, operatorOnly: RequestHandler): void {
  let summary: ReplaySummary | null = null;
  const summaryOf = async (): Promise<ReplaySummary> => {
    // A replay's log is all in memory and never grows: read once.
    if (!summary) {
      const entries = await backend.log(0, Number.MAX_SAFE_INTEGER);
      summary = replaySummary(entries);
    }
    return summary;
  };
  const notReplay = (res: Response): void => sendError(res, 'not-found', 'not a replay: this is a live game (start one with `muster replay <data-dir>`)');

  api.get('/replay', async (_req, res) => {
    const control = controlOf(backend);
    if (!control) return notReplay(res);
    const s = await summaryOf();
    res.json({ ...control.status(), logCursor: backend.logCursor?.() ?? -1, ...s });
  });

  api.post('/replay', operatorOnly, textBody, async (req, res) => {
    const control = controlOf(backend);
    if (!control) return notReplay(res);
    const parsed = readJsonBody(req, res, 'body is not valid JSON: send e.g. {"action":"seek","turn":2}');
    if (!parsed) return;
    const body = (parsed.value ?? {}) as { action?: unknown; speed?: unknown; position?: unknown; index?: unknown; turn?: unknown };
    const whole = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;
    switch (body.action) {
      case 'pause':
        control.pause();
        break;
      case 'play':
        if (body.speed !== undefined && !(typeof body.speed === 'number' && body.speed > 0 && body.speed <= 1000)) {
          return sendError(res, 'invalid-message', `speed must be a number in (0, 1000] (got ${JSON.stringify(body.speed)})`);
        }
        control.play(body.speed as number | undefined);
        break;
      case 'seek': {
        const s = await summaryOf();
        let position: number;
        if (whole(body.position)) position = body.position;
        else if (whole(body.turn)) {
          const t = s.turns.find((x) => x.turn === body.turn);
          if (!t) return sendError(res, 'not-found', `no turn ${body.turn} in the record (turns: ${s.turns.map((x) => x.turn).join(', ') || 'none'})`);
          position = t.position;
        } else if (whole(body.index)) {
          const entries = await backend.log(0, Number.MAX_SAFE_INTEGER);
          position = entries.filter((e) => e.index <= (body.index as number)).length;
        } else return sendError(res, 'invalid-message', 'seek takes "position" (0 … length), "index" (a log index) or "turn" (a whole number)');
        control.seek(position);
        break;
      }
      default:
        return sendError(res, 'invalid-message', `action must be "pause", "play" or "seek" (got ${JSON.stringify(body.action)})`);
    }
    res.json({ ...control.status(), logCursor: backend.logCursor?.() ?? -1 });
  });
}
