/**
 * A uniform grid over axis-aligned boxes (stands, units...), built once per table state, so that a query
 * near a box or along a segment looks only at the items in the cells it passes instead of every item on
 * the table. Queries return candidates: the caller still tests each exactly. Every item whose box meets
 * the query box or segment (allowing `marginIn` of rounding) is offered, each at most once per query.
 */
import type { SightBox } from './lineOfSight.ts';

export class BoxGrid {
  /** Cell side, inches. */
  readonly cellIn: number;
  readonly #originX: number;
  readonly #originY: number;
  readonly #cols: number;
  readonly #rows: number;
  /** Items of cell k are #items[#start[k] .. #start[k + 1]). */
  readonly #start: Int32Array;
  readonly #items: Int32Array;
  /** Per item, the query that last offered it (de-duplicates items spanning several cells). */
  readonly #seen: Int32Array;
  #stamp = 0;
  /** The grid's extent: the union of the item boxes grown by the margin. */
  readonly #minX: number;
  readonly #minY: number;
  readonly #maxX: number;
  readonly #maxY: number;

  /**
   * @param boxes one box per item (the item's index is its id in queries)
   * @param cellIn cell side, inches (a few items wide keeps cells short and segments' walks cheap)
   * @param marginIn every box is filed as if grown by this much, so floating-point rounding at cell
   *   borders and touching tolerances never lose an item
   */
  constructor(boxes: readonly SightBox[], cellIn: number, marginIn = 0.01) {
    if (!(cellIn > 0) || !Number.isFinite(cellIn)) throw new Error(`BoxGrid: cell size must be a positive number of inches, got ${cellIn}`);
    this.cellIn = cellIn;
    let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
    for (const b of boxes) {
      if (!(b.minX <= b.maxX && b.minY <= b.maxY)) continue; // an empty box meets nothing
      if (b.minX < minX) minX = b.minX;
      if (b.minY < minY) minY = b.minY;
      if (b.maxX > maxX) maxX = b.maxX;
      if (b.maxY > maxY) maxY = b.maxY;
    }
    const empty = !(minX <= maxX);
    this.#minX = empty ? 0 : minX - marginIn;
    this.#minY = empty ? 0 : minY - marginIn;
    this.#maxX = empty ? -1 : maxX + marginIn;
    this.#maxY = empty ? -1 : maxY + marginIn;
    this.#originX = this.#minX;
    this.#originY = this.#minY;
    this.#cols = empty ? 0 : Math.max(1, Math.ceil((this.#maxX - this.#minX) / cellIn));
    this.#rows = empty ? 0 : Math.max(1, Math.ceil((this.#maxY - this.#minY) / cellIn));
    const cols = this.#cols;
    const cells = cols * this.#rows;
    // Each box's cell range, then a counting pass and a filling pass (compressed rows: no array per cell).
    const n = boxes.length;
    const ranges = new Int32Array(4 * n);
    const counts = new Int32Array(cells + 1);
    for (let i = 0; i < n; i++) {
      const b = boxes[i]!;
      if (!(b.minX <= b.maxX && b.minY <= b.maxY)) {
        ranges[4 * i] = 1; // x0 > x1: no cells
        continue;
      }
      const x0 = this.#col(b.minX - marginIn), x1 = this.#col(b.maxX + marginIn);
      const y0 = this.#row(b.minY - marginIn), y1 = this.#row(b.maxY + marginIn);
      ranges[4 * i] = x0;
      ranges[4 * i + 1] = x1;
      ranges[4 * i + 2] = y0;
      ranges[4 * i + 3] = y1;
      for (let y = y0; y <= y1; y++) for (let x = x0; x <= x1; x++) counts[y * cols + x + 1]!++;
    }
    for (let k = 0; k < cells; k++) counts[k + 1]! += counts[k]!;
    const fill = counts.slice(0, cells);
    const items = new Int32Array(counts[cells]!);
    for (let i = 0; i < n; i++) {
      const x0 = ranges[4 * i]!, x1 = ranges[4 * i + 1]!, y0 = ranges[4 * i + 2]!, y1 = ranges[4 * i + 3]!;
      for (let y = y0; y <= y1; y++) for (let x = x0; x <= x1; x++) items[fill[y * cols + x]!++] = i;
    }
    this.#start = counts;
    this.#items = items;
    this.#seen = new Int32Array(n);
  }

  #col(x: number): number {
    const c = Math.floor((x - this.#originX) / this.cellIn);
    return c < 0 ? 0 : c >= this.#cols ? this.#cols - 1 : c;
  }

  #row(y: number): number {
    const r = Math.floor((y - this.#originY) / this.cellIn);
    return r < 0 ? 0 : r >= this.#rows ? this.#rows - 1 : r;
  }

  /** Offers the items of cell k not yet offered in this query; true as soon as `visit` says stop. */
  #visitCell(k: number, stamp: number, visit: (item: number) => boolean): boolean {
    const items = this.#items;
    const seen = this.#seen;
    for (let p = this.#start[k]!, end = this.#start[k + 1]!; p < end; p++) {
      const i = items[p]!;
      if (seen[i] === stamp) continue;
      seen[i] = stamp;
      if (visit(i)) return true;
    }
    return false;
  }

  #nextStamp(): number {
    this.#stamp = (this.#stamp + 1) | 0;
    if (this.#stamp === 0) {
      this.#seen.fill(0);
      this.#stamp = 1;
    }
    return this.#stamp;
  }

  /**
   * Offers every item filed in a cell the box meets, once, until `visit` returns true. Returns whether it
   * stopped early. Not re-entrant: `visit` must not query this grid.
   */
  someNearBox(minX: number, minY: number, maxX: number, maxY: number, visit: (item: number) => boolean): boolean {
    if (this.#cols === 0 || maxX < this.#minX || minX > this.#maxX || maxY < this.#minY || minY > this.#maxY) return false;
    const stamp = this.#nextStamp();
    const x0 = this.#col(minX), x1 = this.#col(maxX), y0 = this.#row(minY), y1 = this.#row(maxY);
    for (let y = y0; y <= y1; y++) for (let x = x0; x <= x1; x++) if (this.#visitCell(y * this.#cols + x, stamp, visit)) return true;
    return false;
  }

  /**
   * Offers every item filed in a cell the segment (ax, ay) → (bx, by) passes through, once, cells nearest
   * the start first, until `visit` returns true. Returns whether it stopped early. Not re-entrant.
   */
  someAlongSegment(ax: number, ay: number, bx: number, by: number, visit: (item: number) => boolean): boolean {
    if (this.#cols === 0) return false;
    const dx = bx - ax;
    const dy = by - ay;
    // Clip to the grid's extent (Liang-Barsky): nothing outside it can meet an item.
    let t0 = 0;
    let t1 = 1;
    if (dx === 0) {
      if (ax < this.#minX || ax > this.#maxX) return false;
    } else {
      const u = (this.#minX - ax) / dx;
      const v = (this.#maxX - ax) / dx;
      // Entering and leaving the slab (no destructuring swap: it allocates an array per call).
      const lo = u < v ? u : v;
      const hi = u < v ? v : u;
      if (lo > t0) t0 = lo;
      if (hi < t1) t1 = hi;
    }
    if (dy === 0) {
      if (ay < this.#minY || ay > this.#maxY) return false;
    } else {
      const u = (this.#minY - ay) / dy;
      const v = (this.#maxY - ay) / dy;
      const lo = u < v ? u : v;
      const hi = u < v ? v : u;
      if (lo > t0) t0 = lo;
      if (hi < t1) t1 = hi;
    }
    if (!(t0 <= t1)) return false;
    const stamp = this.#nextStamp();
    const cell = this.cellIn;
    let cx = this.#col(ax + dx * t0);
    let cy = this.#row(ay + dy * t0);
    const stepX = dx > 0 ? 1 : dx < 0 ? -1 : 0;
    const stepY = dy > 0 ? 1 : dy < 0 ? -1 : 0;
    // Parameter t at which the segment crosses the next column (row) border, and per column (row).
    const deltaX = stepX === 0 ? Infinity : cell / Math.abs(dx);
    const deltaY = stepY === 0 ? Infinity : cell / Math.abs(dy);
    let nextX = stepX === 0 ? Infinity : (this.#originX + (stepX > 0 ? cx + 1 : cx) * cell - ax) / dx;
    let nextY = stepY === 0 ? Infinity : (this.#originY + (stepY > 0 ? cy + 1 : cy) * cell - ay) / dy;
    const cols = this.#cols;
    const rows = this.#rows;
    for (;;) {
      if (this.#visitCell(cy * cols + cx, stamp, visit)) return true;
      if (nextX <= nextY) {
        if (nextX > t1) return false;
        cx += stepX;
        nextX += deltaX;
      } else {
        if (nextY > t1) return false;
        cy += stepY;
        nextY += deltaY;
      }
      if (cx < 0 || cx >= cols || cy < 0 || cy >= rows) return false;
    }
  }
}
