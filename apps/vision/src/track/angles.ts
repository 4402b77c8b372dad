/** Normalises degrees to [0, 360). */
export function normalizeDeg(deg: number): number {
  const d = deg % 360;
  const n = d < 0 ? d + 360 : d;
  return n === 360 ? 0 : n;
}

/** Signed smallest rotation from `fromDeg` to `toDeg`, in (-180, 180]. */
export function deltaDeg(fromDeg: number, toDeg: number): number {
  const d = normalizeDeg(toDeg - fromDeg);
  return d > 180 ? d - 360 : d;
}
