/**
 * The spatial reads queries made (`standsIn`, `unitsIn` boxes and `standsAlong` segments), each owned by
 * the query that read it: when stands move the engine asks which owners' reads the changed footprints meet.
 * Reads are filed in a coarse grid of cells by their box, so a change looks only at the reads filed in the
 * cells it covers; a read that spans many cells (a unit's whole weapon reach) is kept on a short list that
 * every change scans.
 */
import type { BoundingBoxIn } from '../../geometry/polygon.ts';
import { segmentMeetsGrownBox } from './segmentBox.ts';

/** Cell side of the index, inches. */
const CELL_IN = 8;
/** A read covering more cells than this is scanned on every change instead of filed per cell. */
const MAX_CELLS = 16;
/** Cell coordinates are folded into one number key (tables are far smaller than this many cells across). */
const KEY_SPAN = 1 << 20;
const KEY_OFFSET = KEY_SPAN / 2;

export class BoxReads<Owner> {
  /** Per slot: its box (minX, minY, maxX, maxY). */
  #boxes = new Float64Array(0);
  /** Per slot: its segment (ax, ay, bx, by, margin) for a segment read; NaN in ax for a box read. */
  #segments = new Float64Array(0);
  readonly #owners: (Owner | undefined)[] = [];
  /** Per slot: bumped when the slot is freed, so entries of its last use left in cells are passed over. */
  #generation = new Int32Array(0);
  readonly #free: number[] = [];
  #count = 0;
  /** Cell key -> slots filed there, as (slot, generation) pairs; dead pairs are dropped when met. */
  readonly #cells = new Map<number, number[]>();
  /** Slots of reads too wide to file per cell, as (slot, generation) pairs. */
  #wide: number[] = [];
  /** Per slot: the last `meeting` call that looked at it (a read filed in several cells is tested once). */
  #visited = new Int32Array(0);
  #visit = 0;
  /** Per slot: how many entries it has in the cells and the wide list (left behind dead when freed). */
  #entries = new Int32Array(0);
  /** Dead entries still in the lists, and live ones: the lists are swept when the dead outnumber the live. */
  #dead = 0;
  #live = 0;

  /** Files a box read for `owner`; returns its slot (to drop it with `remove`). */
  add(owner: Owner, box: BoundingBoxIn): number {
    return this.#file(owner, box.minXIn, box.minYIn, box.maxXIn, box.maxYIn, NaN, 0, 0, 0, 0);
  }

  /** Files a segment read: stands whose footprint box, grown by `marginIn`, the segment meets. */
  addSegment(owner: Owner, ax: number, ay: number, bx: number, by: number, marginIn: number): number {
    return this.#file(owner, Math.min(ax, bx) - marginIn, Math.min(ay, by) - marginIn, Math.max(ax, bx) + marginIn, Math.max(ay, by) + marginIn, ax, ay, bx, by, marginIn);
  }

  /** Whether `slot` holds a box read of exactly `box`. */
  sameBox(slot: number, box: BoundingBoxIn): boolean {
    const b = this.#boxes;
    return this.#segments[5 * slot] !== this.#segments[5 * slot] && b[4 * slot] === box.minXIn && b[4 * slot + 1] === box.minYIn && b[4 * slot + 2] === box.maxXIn && b[4 * slot + 3] === box.maxYIn;
  }

  /** Whether `slot` holds exactly this segment read. */
  sameSegment(slot: number, ax: number, ay: number, bx: number, by: number, marginIn: number): boolean {
    const s = this.#segments;
    return s[5 * slot] === ax && s[5 * slot + 1] === ay && s[5 * slot + 2] === bx && s[5 * slot + 3] === by && s[5 * slot + 4] === marginIn;
  }

  #file(owner: Owner, x0: number, y0: number, x1: number, y1: number, ax: number, ay: number, bx: number, by: number, m: number): number {
    const slot = this.#free.length > 0 ? this.#free.pop()! : this.#count++;
    if (slot >= this.#generation.length) this.#grow(Math.max(256, 2 * this.#generation.length));
    const b = this.#boxes;
    b[4 * slot] = x0;
    b[4 * slot + 1] = y0;
    b[4 * slot + 2] = x1;
    b[4 * slot + 3] = y1;
    const s = this.#segments;
    s[5 * slot] = ax;
    s[5 * slot + 1] = ay;
    s[5 * slot + 2] = bx;
    s[5 * slot + 3] = by;
    s[5 * slot + 4] = m;
    this.#owners[slot] = owner;
    const gen = this.#generation[slot]!;
    this.#entries[slot] = 0;
    if (!(x0 <= x1 && y0 <= y1)) return slot; // an empty box meets nothing
    const c0 = cellOf(x0), c1 = cellOf(x1), r0 = cellOf(y0), r1 = cellOf(y1);
    const cells = (c1 - c0 + 1) * (r1 - r0 + 1);
    if (cells > MAX_CELLS) {
      this.#wide.push(slot, gen);
      this.#entries[slot] = 1;
      this.#live++;
      return slot;
    }
    this.#entries[slot] = cells;
    this.#live += cells;
    for (let r = r0; r <= r1; r++) {
      for (let c = c0; c <= c1; c++) {
        const key = c * KEY_SPAN + r;
        let list = this.#cells.get(key);
        if (!list) this.#cells.set(key, (list = []));
        list.push(slot, gen);
      }
    }
    return slot;
  }

  #grow(size: number): void {
    const boxes = new Float64Array(4 * size);
    boxes.set(this.#boxes);
    this.#boxes = boxes;
    const segments = new Float64Array(5 * size);
    segments.set(this.#segments);
    this.#segments = segments;
    const generation = new Int32Array(size);
    generation.set(this.#generation);
    this.#generation = generation;
    const visited = new Int32Array(size);
    visited.set(this.#visited);
    this.#visited = visited;
    const entries = new Int32Array(size);
    entries.set(this.#entries);
    this.#entries = entries;
  }

  remove(slot: number): void {
    this.#owners[slot] = undefined;
    this.#generation[slot]!++;
    this.#free.push(slot);
    const n = this.#entries[slot]!;
    this.#live -= n;
    this.#dead += n;
    if (this.#dead > 1024 && this.#dead > this.#live) this.#sweep();
  }

  /** Entries in the lists, live and dead (for tests: the lists must not grow without bound). */
  entryCount(): number {
    let n = this.#wide.length / 2;
    for (const list of this.#cells.values()) n += list.length / 2;
    return n;
  }

  /** Drops every dead entry from the lists (reads whose query ran again and read elsewhere). */
  #sweep(): void {
    const gens = this.#generation;
    const keep = (list: number[]): number[] => {
      let w = 0;
      for (let i = 0; i < list.length; i += 2) {
        if (gens[list[i]!] !== list[i + 1]) continue;
        list[w++] = list[i]!;
        list[w++] = list[i + 1]!;
      }
      list.length = w;
      return list;
    };
    keep(this.#wide);
    for (const [key, list] of this.#cells) if (keep(list).length === 0) this.#cells.delete(key);
    this.#dead = 0;
  }

  /**
   * Calls `hit` for the owner of every read that meets one of `changed` (4 numbers per box; inclusive), or
   * of every read when `all`. An owner with several reads may be offered more than once; `skip` passes over
   * owners already handled.
   */
  meeting(changed: readonly number[], all: boolean, skip: (o: Owner) => boolean, hit: (o: Owner) => void): void {
    if (all) {
      this.#every(skip, hit);
      return;
    }
    this.#visitCells(changed, 4, changed, false, skip, hit);
  }

  /**
   * For reads whose answer is which boxes meet them (`unitsIn`: the ids, not where they are): calls `hit`
   * for the owner of every read that one of the moved boxes entered or left. `moves` holds 8 numbers per
   * moved box, before then after (an empty box, min above max, for none).
   */
  meetingMembership(moves: readonly number[], all: boolean, skip: (o: Owner) => boolean, hit: (o: Owner) => void): void {
    if (all) {
      this.#every(skip, hit);
      return;
    }
    this.#visitCells(moves, 4, moves, true, skip, hit);
  }

  #every(skip: (o: Owner) => boolean, hit: (o: Owner) => void): void {
    for (let s = 0; s < this.#count; s++) {
      const owner = this.#owners[s];
      if (owner !== undefined && !skip(owner)) hit(owner);
    }
  }

  /** Scans the wide reads and the cells every box of `boxes` (4 numbers each, every `step`) covers. */
  #visitCells(boxes: readonly number[], step: number, changed: readonly number[], membership: boolean, skip: (o: Owner) => boolean, hit: (o: Owner) => void): void {
    if (changed.length === 0) return;
    const visit = ++this.#visit;
    this.#wide = this.#scan(this.#wide, changed, membership, visit, skip, hit);
    for (let j = 0; j < boxes.length; j += step) {
      if (!(boxes[j]! <= boxes[j + 2]! && boxes[j + 1]! <= boxes[j + 3]!)) continue;
      const c0 = cellOf(boxes[j]!), c1 = cellOf(boxes[j + 2]!), r0 = cellOf(boxes[j + 1]!), r1 = cellOf(boxes[j + 3]!);
      for (let r = r0; r <= r1; r++) {
        for (let c = c0; c <= c1; c++) {
          const key = c * KEY_SPAN + r;
          const list = this.#cells.get(key);
          if (!list) continue;
          const kept = this.#scan(list, changed, membership, visit, skip, hit);
          if (kept.length === 0) this.#cells.delete(key);
        }
      }
    }
  }

  /**
   * Tests the live reads of a (slot, generation) list against the changes (boxes, or before/after pairs
   * with `membership`); drops dead pairs from the list in place and returns it.
   */
  #scan(list: number[], changed: readonly number[], membership: boolean, visit: number, skip: (o: Owner) => boolean, hit: (o: Owner) => void): number[] {
    const gens = this.#generation, visited = this.#visited, b = this.#boxes, sg = this.#segments;
    let w = 0;
    for (let i = 0; i < list.length; i += 2) {
      const slot = list[i]!, gen = list[i + 1]!;
      if (gens[slot] !== gen) {
        this.#dead--; // freed since it was filed: dropped here
        continue;
      }
      list[w++] = slot;
      list[w++] = gen;
      if (visited[slot] === visit) continue;
      visited[slot] = visit;
      const owner = this.#owners[slot]!;
      if (skip(owner)) continue;
      const x0 = b[4 * slot]!, y0 = b[4 * slot + 1]!, x1 = b[4 * slot + 2]!, y1 = b[4 * slot + 3]!;
      if (membership) {
        for (let j = 0; j < changed.length; j += 8) {
          const before = x0 <= changed[j + 2]! && x1 >= changed[j]! && y0 <= changed[j + 3]! && y1 >= changed[j + 1]!;
          const after = x0 <= changed[j + 6]! && x1 >= changed[j + 4]! && y0 <= changed[j + 7]! && y1 >= changed[j + 5]!;
          if (before !== after) {
            hit(owner);
            break;
          }
        }
        continue;
      }
      const ax = sg[5 * slot]!;
      for (let j = 0; j < changed.length; j += 4) {
        const cx0 = changed[j]!, cy0 = changed[j + 1]!, cx1 = changed[j + 2]!, cy1 = changed[j + 3]!;
        if (!(x0 <= cx1 && x1 >= cx0 && y0 <= cy1 && y1 >= cy0)) continue;
        if (ax === ax && !segmentMeetsGrownBox(ax, sg[5 * slot + 1]!, sg[5 * slot + 2]!, sg[5 * slot + 3]!, sg[5 * slot + 4]!, cx0, cy0, cx1, cy1)) continue;
        hit(owner);
        break;
      }
    }
    list.length = w;
    return list;
  }
}

function cellOf(v: number): number {
  const c = Math.floor(v / CELL_IN) + KEY_OFFSET;
  return c < 0 ? 0 : c >= KEY_SPAN ? KEY_SPAN - 1 : c;
}
