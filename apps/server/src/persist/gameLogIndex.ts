/**
 * Where the game log's lines start in the file: the byte offset of every `step`-th line (line = entry
 * index, corrupt lines included), so a read from any index seeks to at most `step - 1` lines before it
 * instead of parsing the file from the start. Built while the file is scanned at open and extended on
 * every append. Memory: one number per `step` lines (a 10-hour demo, 200 000 lines: 1 600 numbers).
 */
export class SparseLineIndex {
  private readonly offsets: number[] = [];
  constructor(readonly step: number) {
    if (!Number.isInteger(step) || step < 1) throw new Error(`index step must be a whole number ≥ 1, got ${step}`);
  }

  /** Records that line `line` starts at byte `offset`. Lines must be added in order, each once. */
  add(line: number, offset: number): void {
    if (line % this.step !== 0) return;
    if (line / this.step !== this.offsets.length) throw new Error(`line index: line ${line} added out of order`);
    this.offsets.push(offset);
  }

  /** The nearest indexed line at or before `line`, and its byte offset (line 0 at offset 0 when empty). */
  seek(line: number): { readonly line: number; readonly offset: number } {
    const k = Math.min(Math.floor(line / this.step), this.offsets.length - 1);
    if (k < 0) return { line: 0, offset: 0 };
    return { line: k * this.step, offset: this.offsets[k]! };
  }

  /** Offsets held (for tests and memory accounting). */
  size(): number {
    return this.offsets.length;
  }
}
