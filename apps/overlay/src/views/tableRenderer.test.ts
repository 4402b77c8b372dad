import { describe, expect, it } from 'vitest';
import { squareRectPx } from './tableRenderer.ts';

describe('squareRectPx', () => {
  const table = { widthIn: 72, depthIn: 48 };

  it('gives the table rectangle for a map fit and for a quarter turn', () => {
    // 10 px per inch, table y up, near-left corner at (12, 500).
    expect(squareRectPx([10, 0, 12, 0, -10, 500, 0, 0, 1], table)).toEqual({ x0: 12, y0: 20, x1: 732, y1: 500 });
    // Turned a quarter: table x down the screen, y to the right.
    expect(squareRectPx([0, 8, 4, 8, 0, 46, 0, 0, 1], table)).toEqual({ x0: 4, y0: 46, x1: 388, y1: 622 });
  });

  it('refuses a map that is not square on screen (the cloth is then drawn as a quad)', () => {
    expect(squareRectPx([10, 1, 0, 0, 10, 0, 0, 0, 1], table)).toBeNull(); // sheared / turned by a few degrees
    expect(squareRectPx([10, 0, 0, 0, 10, 0, 0.001, 0, 1], table)).toBeNull(); // projective (a projector)
  });
});
