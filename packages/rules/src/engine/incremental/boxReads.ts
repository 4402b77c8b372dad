/**
 * The boxes queries read (`standsIn`, `unitsIn`), each owned by the query that read it: when stands move
 * the engine asks which owners' boxes the changed footprints meet. One flat array, scanned whole per
 * update behind one test against the union of the changes (most boxes are nowhere near a change).
 */
import type { BoundingBoxIn } from '../../geometry/polygon.ts';

export class BoxReads<Owner> {
  #boxes = new Float64Array(0);
  readonly #owners: (Owner | undefined)[] = [];
  readonly #free: number[] = [];
  #count = 0;

  /** Files `box` for `owner`; returns its slot (to drop it with `remove`). */
  add(owner: Owner, box: BoundingBoxIn): number {
    const slot = this.#free.length > 0 ? this.#free.pop()! : this.#count++;
    if (4 * slot + 4 > this.#boxes.length) {
      const grown = new Float64Array(Math.max(1024, this.#boxes.length * 2));
      grown.set(this.#boxes);
      this.#boxes = grown;
    }
    const b = this.#boxes;
    b[4 * slot] = box.minXIn;
    b[4 * slot + 1] = box.minYIn;
    b[4 * slot + 2] = box.maxXIn;
    b[4 * slot + 3] = box.maxYIn;
    this.#owners[slot] = owner;
    return slot;
  }

  remove(slot: number): void {
    this.#owners[slot] = undefined;
    this.#free.push(slot);
  }

  /**
   * Calls `hit` for the owner of every box that meets one of `changed` (4 numbers per box; inclusive), or
   * of every box when `all`. An owner with several boxes may be offered more than once; `skip` passes over
   * owners already handled.
   */
  meeting(changed: readonly number[], all: boolean, skip: (o: Owner) => boolean, hit: (o: Owner) => void): void {
    if (changed.length === 0 && !all) return;
    let ux0 = Infinity, uy0 = Infinity, ux1 = -Infinity, uy1 = -Infinity;
    for (let j = 0; j < changed.length; j += 4) {
      if (changed[j]! < ux0) ux0 = changed[j]!;
      if (changed[j + 1]! < uy0) uy0 = changed[j + 1]!;
      if (changed[j + 2]! > ux1) ux1 = changed[j + 2]!;
      if (changed[j + 3]! > uy1) uy1 = changed[j + 3]!;
    }
    const b = this.#boxes;
    for (let s = 0; s < this.#count; s++) {
      const owner = this.#owners[s];
      if (owner === undefined || skip(owner)) continue;
      const x0 = b[4 * s]!, y0 = b[4 * s + 1]!, x1 = b[4 * s + 2]!, y1 = b[4 * s + 3]!;
      let meets = all;
      if (!meets && x0 <= ux1 && x1 >= ux0 && y0 <= uy1 && y1 >= uy0) {
        for (let j = 0; j < changed.length && !meets; j += 4) meets = x0 <= changed[j + 2]! && x1 >= changed[j]! && y0 <= changed[j + 3]! && y1 >= changed[j + 1]!;
      }
      if (meets) hit(owner);
    }
  }
}
