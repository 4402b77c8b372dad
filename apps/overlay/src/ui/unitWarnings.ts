/**
 * The rules' warnings about one unit (e.g. `sharpshooters/not-loose-order`, `sharpshooters/removed`), for
 * the selected unit's panel. Plain data, tested in node; `unitWarningsList.ts` draws it.
 */
import type { EvaluationWarning } from '@muster/rules';

export interface UnitWarningLine {
  readonly code: string;
  readonly message: string;
}

/** The warnings naming `unitId`, in the rules' order. */
export function unitWarningLines(warnings: readonly EvaluationWarning[] | undefined, unitId: string): UnitWarningLine[] {
  return (warnings ?? []).filter((w) => w.unitId === unitId).map((w) => ({ code: w.code, message: w.message }));
}

/** A key that changes when the lines do (the panel redraws only on change). */
export function unitWarningsKey(lines: readonly UnitWarningLine[]): string {
  return lines.map((l) => `${l.code}\n${l.message}`).join('\n');
}
