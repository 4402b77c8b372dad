/**
 * A recorded game as a file other programs read (`muster export`): every log entry with its time, turn
 * and who caused it, stand entries with the unit of the stand.
 *
 * - `csv`: one row per entry: `index,time,time_ms,elapsed_s,turn,by,kind,unit_id,stand_id,x_in,y_in,
 *   heading_deg,detail`, where poses fill x/y/heading and `detail` words the rest (the card drawn, the
 *   dice faces and hits, the status set, a summary of the terrain). Poses per stand over time are the
 *   rows of kind `pose` (and `stand-removed`: the stand left the table).
 * - `json`: JSON lines, one entry a line as the log holds it, plus `time` (ISO 8601) and, for stand
 *   entries, `unitId`. The terrain is whole here.
 *
 * The log is streamed (`readLogEntries`), never held whole; nothing in the data directory is written.
 */
import type { GameLogEntry } from '@muster/protocol';
import { readRecord } from '../replay/readRecord.ts';
import { readLogEntries, type ReadLogSummary } from '../replay/readLogEntries.ts';
import type { Roster } from '../roster/roster.ts';
import { csvRow } from './csvRow.ts';

export type ExportFormat = 'csv' | 'json';
export const EXPORT_FORMATS: readonly ExportFormat[] = ['csv', 'json'];

export const CSV_COLUMNS = ['index', 'time', 'time_ms', 'elapsed_s', 'turn', 'by', 'kind', 'unit_id', 'stand_id', 'x_in', 'y_in', 'heading_deg', 'detail'] as const;

export interface ExportOptions {
  readonly dataDir: string;
  readonly format: ExportFormat;
  /** Receives the output, piece by piece (awaited: a slow reader slows the export, memory stays flat). */
  readonly write: (text: string) => void | Promise<void>;
  readonly onProgress?: (bytesRead: number, totalBytes: number) => void;
  /** Corrupt lines skipped (default: none reported). */
  readonly onProblem?: (problem: string) => void;
}

export interface ExportSummary extends ReadLogSummary {
  /** The directory the record was read from, and anything to say about it (the demo's game taken). */
  readonly dir: string;
  readonly note: string;
}

/** Stand id → the id of its unit (or commander). */
function unitOfStand(roster: Roster): Map<string, string> {
  const out = new Map<string, string>();
  for (const u of roster.units) for (const s of u.stands) out.set(s.id, u.id);
  for (const c of roster.commanders) if (c.stand) out.set(c.stand.id, c.id);
  return out;
}

/** What an entry other than a pose says, in a few words. */
export function entryDetail(e: GameLogEntry): string {
  switch (e.kind) {
    case 'pose':
    case 'stand-removed':
      return '';
    case 'unit-status':
      return Object.keys(e.status).length === 0 ? 'status cleared' : `status ${JSON.stringify(e.status)}`;
    case 'terrain': {
      const t = e.terrain;
      return `terrain: ${t.areas.length} areas, ${t.linear.length} linear, ${t.roads.length} roads, ${t.elevations.length} elevations`;
    }
    case 'assign-tag':
      return e.standId === null ? `marker ${e.markerId} taken off the table` : `marker ${e.markerId} bound to stand ${e.standId}`;
    case 'card': {
      const d = e.draw;
      return `card ${d.card.kind}${d.card.first ? ` (${d.card.first} first)` : ''}, ${d.remaining} left${d.turnEnded ? ', ended the turn' : ''}`;
    }
    case 'dice': {
      const r = e.roll;
      return `${r.faces.length} dice: ${r.faces.join(' ')}; hit on ${r.hitOn}+: ${r.hits} hit${r.hits === 1 ? '' : 's'}${r.reason ? `; ${r.reason}` : ''}`;
    }
    case 'turn':
      return `turn ${e.turn} began`;
    case 'note':
      return e.text;
    case 'ruleset':
      return `rule set ${e.ruleset.name} (${e.ruleset.id})${e.previousId ? `, was ${e.previousId}` : ''}`;
    case 'outcome': {
      const o = e.outcome;
      const dice = o.rolls.map((r) => `${r.request.id} ${r.faces.join(' ')}`).join('; ');
      return `${o.action.kind}: ${o.result}: ${o.summary} (${e.dice === 'rolled' ? 'rolled' : 'dice entered'}${dice ? `: ${dice}` : ''})`;
    }
    case 'outcome-applied':
      return `outcome ${e.outcomeIndex} applied: ${Object.entries(e.statusByUnit).map(([id, st]) => `${id} ${JSON.stringify(st)}`).join('; ')}`;
    case 'outcome-undone':
      return `outcome ${e.outcomeIndex} undone: ${Object.entries(e.statusByUnit).map(([id, st]) => `${id} ${JSON.stringify(st)}`).join('; ')}`;
    case 'outcome-cleared':
      return `outcome ${e.outcomeIndex} cleared`;
  }
}

function unitIdOf(e: GameLogEntry, units: Map<string, string>): string | undefined {
  if (e.kind === 'pose' || e.kind === 'stand-removed') return units.get(e.standId);
  if (e.kind === 'unit-status') return e.unitId;
  if (e.kind === 'dice') return e.roll.unitId;
  if (e.kind === 'outcome') return e.outcome.action.unitId;
  if (e.kind === 'assign-tag' && e.standId !== null) return units.get(e.standId);
  return undefined;
}

/** Exports the record in `options.dataDir`. Throws `RecordError` when it holds no record. */
export async function exportRecord(options: ExportOptions): Promise<ExportSummary> {
  const record = readRecord(options.dataDir);
  const units = unitOfStand(record.roster);
  let firstMs: number | undefined;
  if (options.format === 'csv') await options.write(csvRow(CSV_COLUMNS));
  // Lines are gathered into pieces of ~64 KiB: one write per line would cost more than the export.
  let piece = '';
  const flush = async (): Promise<void> => {
    if (piece === '') return;
    const text = piece;
    piece = '';
    await options.write(text);
  };
  const summary = await readLogEntries(
    record.logPath,
    (e) => {
      firstMs ??= e.timeMs;
      const time = new Date(e.timeMs).toISOString();
      const unitId = unitIdOf(e, units);
      if (options.format === 'json') {
        piece += `${JSON.stringify({ ...e, time, ...(unitId !== undefined && (e.kind === 'pose' || e.kind === 'stand-removed') ? { unitId } : {}) })}\n`;
      } else {
        const standId = e.kind === 'pose' || e.kind === 'stand-removed' ? e.standId : e.kind === 'assign-tag' ? (e.standId ?? '') : '';
        const pose = e.kind === 'pose' ? e.pose : null;
        piece += csvRow([
          e.index,
          time,
          e.timeMs,
          ((e.timeMs - firstMs) / 1000).toFixed(3),
          e.turn,
          e.by,
          e.kind,
          unitId,
          standId,
          pose?.xIn,
          pose?.yIn,
          pose?.headingDeg,
          entryDetail(e),
        ]);
      }
      // Awaited only when a piece goes out: one promise per entry would cost more than the entry.
      return piece.length >= 64 * 1024 ? flush() : undefined;
    },
    { ...(options.onProgress ? { onProgress: options.onProgress } : {}), ...(options.onProblem ? { onProblem: options.onProblem } : {}) },
  );
  await flush();
  return { ...summary, dir: record.dir, note: record.note };
}
