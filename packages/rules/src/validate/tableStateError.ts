/** One thing wrong with a table state: where (a JSON path like `units[3].standIds[1]`) and what. */
export interface TableStateProblem {
  readonly path: string;
  readonly message: string;
}

/**
 * Thrown by `parseTableState` when the input is not a valid table state. `problems` lists every problem
 * found (not just the first); `message` has one per line, each starting with its path.
 */
export class TableStateError extends Error {
  readonly problems: readonly TableStateProblem[];
  constructor(problems: readonly TableStateProblem[]) {
    const n = problems.length;
    super(
      `invalid table state (${n} problem${n === 1 ? '' : 's'}):\n` +
        problems.map((p) => `  ${formatProblem(p)}`).join('\n'),
    );
    this.name = 'TableStateError';
    this.problems = problems;
  }

  /** All problems on one line, for a CLI: the first few, then how many more. */
  oneLine(max = 3): string {
    const shown = this.problems.slice(0, max).map(formatProblem).join('; ');
    const more = this.problems.length - max;
    return more > 0 ? `${shown} (and ${more} more)` : shown;
  }
}

export function formatProblem(p: TableStateProblem): string {
  return p.path ? `${p.path}: ${p.message}` : p.message;
}
