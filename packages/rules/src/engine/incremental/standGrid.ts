/**
 * Where the stands are: a uniform grid of the stands' footprint boxes, for `TableReader.standsIn`. A
 * footprint box is the stand's centre plus half its diagonal each way (covers the base at any heading);
 * the engine tests changes against the same boxes, so a stand it did not return cannot have mattered.
 */
import type { BoundingBoxIn } from '../../geometry/polygon.ts';
import type { Stand } from '../../model/tableState.ts';
import { segmentMeetsGrownBox } from './segmentBox.ts';

/** Cell side, inches: a few bases across, so a cell holds a handful of stands. */
const CELL_IN = 4;
/** Stands that may have left their cells before the grid is built again (at least; or a 16th of all). */
const MAX_LOOSE = 32;

/** The footprint box of a stand, inches. */
export function standFootprintBox(s: Stand): BoundingBoxIn {
  const r = Math.sqrt(s.widthIn * s.widthIn + s.depthIn * s.depthIn) / 2;
  return { minXIn: s.pose.xIn - r, minYIn: s.pose.yIn - r, maxXIn: s.pose.xIn + r, maxYIn: s.pose.yIn + r };
}

export class StandGrid {
  #stands: readonly Stand[];
  /** Each stand's place in the stands, by id. */
  readonly #indexById = new Map<string, number>();
  /** Per stand, its footprint box: minX, minY, maxX, maxY. */
  readonly #boxes: Float64Array;
  readonly #originX: number;
  readonly #originY: number;
  readonly #cols: number;
  readonly #rows: number;
  /** Stands of cell k are #items[#start[k] .. #start[k + 1]), ascending. */
  readonly #start: Int32Array;
  readonly #items: Int32Array;
  readonly #seen: Int32Array;
  #stamp = 0;
  /** Per stand, the query that last took it (a stand two segments of one query meet is taken once). */
  readonly #taken: Int32Array;
  #takeStamp = 0;
  /**
   * Stands that moved out of the cells they were filed in since the grid was built: their entries in the
   * cells are passed over, and every query tests them directly (a few at most; past that it is built again).
   */
  readonly #loose: number[] = [];
  readonly #isLoose: Uint8Array;
  /** `standsAlong`'s segment (ax, ay, bx, by, margin) and its box, scratch. */
  readonly #segment = new Float64Array(5);
  readonly #segmentBox = { minXIn: 0, minYIn: 0, maxXIn: 0, maxYIn: 0 };
  /** Scratch for one query's finds. */
  #finds = new Int32Array(64);

  constructor(stands: readonly Stand[]) {
    this.#stands = stands;
    const n = stands.length;
    const boxes = (this.#boxes = new Float64Array(4 * n));
    let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
    for (let i = 0; i < n; i++) {
      const s = stands[i]!;
      this.#indexById.set(s.id, i);
      const r = Math.sqrt(s.widthIn * s.widthIn + s.depthIn * s.depthIn) / 2;
      const x = s.pose.xIn, y = s.pose.yIn;
      boxes[4 * i] = x - r;
      boxes[4 * i + 1] = y - r;
      boxes[4 * i + 2] = x + r;
      boxes[4 * i + 3] = y + r;
      if (x - r < minX) minX = x - r;
      if (y - r < minY) minY = y - r;
      if (x + r > maxX) maxX = x + r;
      if (y + r > maxY) maxY = y + r;
    }
    if (!(minX <= maxX)) minX = maxX = minY = maxY = 0;
    this.#originX = minX;
    this.#originY = minY;
    const cols = (this.#cols = Math.max(1, Math.ceil((maxX - minX) / CELL_IN) + 1));
    const rows = (this.#rows = Math.max(1, Math.ceil((maxY - minY) / CELL_IN) + 1));
    const counts = new Int32Array(cols * rows + 1);
    const cell = (v: number, origin: number, size: number): number => Math.min(size - 1, Math.max(0, Math.floor((v - origin) / CELL_IN)));
    for (let pass = 0; pass < 2; pass++) {
      const fill = pass === 1 ? counts.slice() : undefined;
      const items = pass === 1 ? new Int32Array(counts[cols * rows]!) : undefined;
      for (let i = 0; i < n; i++) {
        const c0 = cell(boxes[4 * i]!, minX, cols), c1 = cell(boxes[4 * i + 2]!, minX, cols);
        const r0 = cell(boxes[4 * i + 1]!, minY, rows), r1 = cell(boxes[4 * i + 3]!, minY, rows);
        for (let r = r0; r <= r1; r++) {
          for (let c = c0; c <= c1; c++) {
            const k = r * cols + c;
            if (items) items[fill![k]!++] = i;
            else counts[k + 1]!++;
          }
        }
      }
      if (pass === 0) for (let k = 0; k < cols * rows; k++) counts[k + 1]! += counts[k]!;
      else {
        this.#start = counts;
        this.#items = items!;
      }
    }
    this.#start ??= counts;
    this.#items ??= new Int32Array(0);
    this.#seen = new Int32Array(n);
    this.#taken = new Int32Array(n);
    this.#isLoose = new Uint8Array(n);
  }

  /**
   * The grid for `stands`, the same stands in the same places with those in `changedIds` changed: each
   * changed stand's box is updated in place, and one that left its cells is tested directly by every query
   * from then on. False when the stands differ, or too many have left their cells: build a new grid.
   */
  update(stands: readonly Stand[], changedIds: Iterable<string>): boolean {
    if (stands.length !== this.#stands.length) return false;
    const cols = this.#cols, rows = this.#rows;
    const cell = (v: number, origin: number, size: number): number => Math.min(size - 1, Math.max(0, Math.floor((v - origin) / CELL_IN)));
    const moves: [number, number, number, number, number, boolean][] = [];
    let newlyLoose = 0;
    for (const id of changedIds) {
      const i = this.#indexById.get(id);
      if (i === undefined || stands[i]!.id !== id) return false;
      const s = stands[i]!;
      const r = Math.sqrt(s.widthIn * s.widthIn + s.depthIn * s.depthIn) / 2;
      const x0 = s.pose.xIn - r, y0 = s.pose.yIn - r, x1 = s.pose.xIn + r, y1 = s.pose.yIn + r;
      const b = this.#boxes;
      const stays =
        this.#isLoose[i] === 0 &&
        cell(b[4 * i]!, this.#originX, cols) === cell(x0, this.#originX, cols) &&
        cell(b[4 * i + 2]!, this.#originX, cols) === cell(x1, this.#originX, cols) &&
        cell(b[4 * i + 1]!, this.#originY, rows) === cell(y0, this.#originY, rows) &&
        cell(b[4 * i + 3]!, this.#originY, rows) === cell(y1, this.#originY, rows) &&
        // The grid's edge cells hold everything beyond them: a stand must stay inside the grid's extent.
        x0 >= this.#originX && y0 >= this.#originY && x1 <= this.#originX + cols * CELL_IN && y1 <= this.#originY + rows * CELL_IN;
      if (!stays && this.#isLoose[i] === 0) newlyLoose++;
      moves.push([i, x0, y0, x1, y1, stays]);
    }
    if (this.#loose.length + newlyLoose > Math.max(MAX_LOOSE, stands.length >> 4)) return false;
    for (const [i, x0, y0, x1, y1, stays] of moves) {
      this.#boxes[4 * i] = x0;
      this.#boxes[4 * i + 1] = y0;
      this.#boxes[4 * i + 2] = x1;
      this.#boxes[4 * i + 3] = y1;
      if (!stays && this.#isLoose[i] === 0) {
        this.#isLoose[i] = 1;
        this.#loose.push(i);
      }
    }
    this.#stands = stands;
    return true;
  }

  /** The stands whose footprint box grown by `marginIn` the segment meets, in the state's order. */
  standsAlong(ax: number, ay: number, bx: number, by: number, marginIn: number): Stand[] {
    return this.standsAlongAny([ax, ay, bx, by, marginIn]);
  }

  /**
   * The stands whose footprint box, grown by its segment's margin, one of the segments meets (5 numbers
   * each: ax, ay, bx, by, margin), each once, in the state's order.
   */
  standsAlongAny(segments: readonly number[]): Stand[] {
    const take = ++this.#takeStamp;
    let count = 0;
    const box = this.#segmentBox;
    const seg = this.#segment;
    for (let j = 0; j + 4 < segments.length; j += 5) {
      const ax = segments[j]!, ay = segments[j + 1]!, bx = segments[j + 2]!, by = segments[j + 3]!, m = segments[j + 4]!;
      seg[0] = ax;
      seg[1] = ay;
      seg[2] = bx;
      seg[3] = by;
      seg[4] = m;
      box.minXIn = Math.min(ax, bx) - m;
      box.minYIn = Math.min(ay, by) - m;
      box.maxXIn = Math.max(ax, bx) + m;
      box.maxYIn = Math.max(ay, by) + m;
      count = this.#collect(box, true, count, take);
    }
    return this.#inOrder(count);
  }

  /** Whether stand `i` passes the segment set up in `#segment`. */
  #nearSegment(i: number): boolean {
    const b = this.#boxes, g = this.#segment;
    return segmentMeetsGrownBox(g[0]!, g[1]!, g[2]!, g[3]!, g[4]!, b[4 * i]!, b[4 * i + 1]!, b[4 * i + 2]!, b[4 * i + 3]!);
  }

  /** The stands whose footprint box meets `box`, in the state's order. */
  standsIn(box: BoundingBoxIn): Stand[] {
    return this.#inOrder(this.#collect(box, false, 0, ++this.#takeStamp));
  }

  /** The first `count` finds as stands, in the state's order. */
  #inOrder(count: number): Stand[] {
    const out: Stand[] = [];
    // A typed array sorts numbers without a comparator.
    const found = this.#finds;
    if (count > 1) found.subarray(0, count).sort();
    for (let k = 0; k < count; k++) out.push(this.#stands[found[k]!]!);
    return out;
  }

  /**
   * Adds to the finds (from `count`) every stand not yet taken under `take` whose footprint box meets `box`
   * (and, with `alongSegment`, passes `#nearSegment`); returns the new count.
   */
  #collect(box: BoundingBoxIn, alongSegment: boolean, count: number, take: number): number {
    const n = this.#stands.length;
    if (n === 0 || !(box.minXIn <= box.maxXIn && box.minYIn <= box.maxYIn)) return count;
    const cols = this.#cols, rows = this.#rows;
    const c0 = Math.max(0, Math.floor((box.minXIn - this.#originX) / CELL_IN));
    const c1 = Math.min(cols - 1, Math.floor((box.maxXIn - this.#originX) / CELL_IN));
    const r0 = Math.max(0, Math.floor((box.minYIn - this.#originY) / CELL_IN));
    const r1 = Math.min(rows - 1, Math.floor((box.maxYIn - this.#originY) / CELL_IN));
    // A stand filed in several cells is looked at once per box.
    const stamp = ++this.#stamp;
    const seen = this.#seen, taken = this.#taken, items = this.#items, start = this.#start, boxes = this.#boxes, isLoose = this.#isLoose;
    // Rows and columns past the grid's extent are empty (c0 > c1 or r0 > r1): only loose stands are there.
    for (let r = r0; r <= r1; r++) {
      for (let c = c0; c <= c1; c++) {
        const k = r * cols + c;
        for (let j = start[k]!; j < start[k + 1]!; j++) {
          const i = items[j]!;
          if (seen[i] === stamp || taken[i] === take || isLoose[i] !== 0) continue;
          seen[i] = stamp;
          if (boxes[4 * i]! <= box.maxXIn && boxes[4 * i + 2]! >= box.minXIn && boxes[4 * i + 1]! <= box.maxYIn && boxes[4 * i + 3]! >= box.minYIn && (!alongSegment || this.#nearSegment(i))) {
            taken[i] = take;
            count = this.#found(count, i);
          }
        }
      }
    }
    for (const i of this.#loose) {
      if (taken[i] === take) continue;
      if (boxes[4 * i]! <= box.maxXIn && boxes[4 * i + 2]! >= box.minXIn && boxes[4 * i + 1]! <= box.maxYIn && boxes[4 * i + 3]! >= box.minYIn && (!alongSegment || this.#nearSegment(i))) {
        taken[i] = take;
        count = this.#found(count, i);
      }
    }
    return count;
  }

  /** Notes stand `i` as the `count`-th find; returns the new count. */
  #found(count: number, i: number): number {
    if (count === this.#finds.length) {
      const grown = new Int32Array(this.#finds.length * 2);
      grown.set(this.#finds);
      this.#finds = grown;
    }
    this.#finds[count] = i;
    return count + 1;
  }
}
