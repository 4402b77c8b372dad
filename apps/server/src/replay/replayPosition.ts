/**
 * Where in a recorded game to start (`muster replay --from`), or which moment to ask about
 * (`GET /api/history?at=`), as a timeline position (entries played):
 *
 *   120                    after log entry 120 (the index `GET /api/log` and the export show)
 *   turn:3                 the start of turn 3 (just after the entry that began it)
 *   +90s, +5m, +1h20m      that long after the first entry
 *   2026-11-24T15:04:05Z   that moment (ISO 8601; without a zone, local time)
 *   15:04 or 15:04:05      that time of day, on the day of the first entry (local time)
 */
import type { ReplayTimeline } from './replayTimeline.ts';

export const POSITION_FORMS = 'a log index (120), turn:N, +90s / +5m / +1h20m after the start, an ISO time (2026-11-24T15:04:05Z) or a time of day (15:04:05)';

/** The position `text` names in `timeline`; throws an error saying what is accepted. */
export function parseReplayPosition(text: string, timeline: ReplayTimeline): number {
  const t = text.trim();
  if (/^\d+$/.test(t)) return timeline.positionAfterIndex(Number(t));
  const turn = /^turn:(\d+)$/i.exec(t);
  if (turn) {
    const n = Number(turn[1]);
    const { entries } = timeline;
    const first = entries.findIndex((e) => e.turn >= n);
    if (first < 0) throw new Error(`turn ${n} is not in the record (it ends in turn ${entries[entries.length - 1]?.turn ?? 1})`);
    // The entry that began the turn (a card that ended the last one, or set-turn) shows the new turn itself.
    return entries[first]!.kind === 'turn' ? first + 1 : first;
  }
  const start = timeline.entries[0]?.timeMs;
  const offset = /^\+(?:(\d+(?:\.\d+)?)h)?(?:(\d+(?:\.\d+)?)m)?(?:(\d+(?:\.\d+)?)s)?$/i.exec(t);
  if (offset && t.length > 1) {
    if (start === undefined) return 0;
    const ms = (Number(offset[1] ?? 0) * 3600 + Number(offset[2] ?? 0) * 60 + Number(offset[3] ?? 0)) * 1000;
    return timeline.positionAtTime(start + ms);
  }
  const clock = /^(\d{1,2}):(\d{2})(?::(\d{2}(?:\.\d+)?))?$/.exec(t);
  if (clock) {
    if (start === undefined) return 0;
    const day = new Date(start);
    day.setHours(Number(clock[1]), Number(clock[2]), 0, 0);
    return timeline.positionAtTime(day.getTime() + Number(clock[3] ?? 0) * 1000);
  }
  if (/^\d{4}-\d{2}-\d{2}/.test(t)) {
    const ms = Date.parse(t);
    if (Number.isFinite(ms)) return timeline.positionAtTime(ms);
  }
  throw new Error(`"${text}" is not a position in the record; give ${POSITION_FORMS}`);
}
