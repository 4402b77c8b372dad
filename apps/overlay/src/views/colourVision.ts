/**
 * How a colour looks to someone with dichromatic colour vision, and how far apart two colours look, so the
 * palette can be checked by a test rather than by eye. Simulation: Machado, Oliveira & Fernandes (2009),
 * severity 1.0, applied in linear RGB; distance: CIE76 ΔE in CIELAB (D65). ΔE ≈ 2 is just noticeable;
 * ≥ 30 reads as clearly different colours at a glance.
 */
export type ColourVision = 'normal' | 'deuteranopia' | 'protanopia' | 'tritanopia';

export const DICHROMACIES: readonly ColourVision[] = ['deuteranopia', 'protanopia', 'tritanopia'];

type Matrix = readonly [readonly [number, number, number], readonly [number, number, number], readonly [number, number, number]];

const SIMULATION: Record<ColourVision, Matrix> = {
  normal: [[1, 0, 0], [0, 1, 0], [0, 0, 1]],
  protanopia: [[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216], [-0.003882, -0.048116, 1.051998]],
  deuteranopia: [[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413], [-0.01182, 0.04294, 0.968881]],
  tritanopia: [[1.255528, -0.076749, -0.178779], [-0.078411, 0.930809, 0.147602], [0.004733, 0.691367, 0.3039]],
};

function toLinear(byte: number): number {
  const c = byte / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

/** Linear RGB (0..1) of 0xRRGGBB as seen with `vision`. */
export function simulateLinear(color: number, vision: ColourVision): [number, number, number] {
  const rgb = [toLinear((color >> 16) & 255), toLinear((color >> 8) & 255), toLinear(color & 255)];
  const m = SIMULATION[vision];
  return m.map((row) => Math.min(1, Math.max(0, row[0] * rgb[0]! + row[1] * rgb[1]! + row[2] * rgb[2]!))) as [number, number, number];
}

function lab([r, g, b]: readonly [number, number, number]): [number, number, number] {
  const x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047;
  const y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  const z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883;
  const f = (t: number) => (t > 0.008856 ? Math.cbrt(t) : 7.787 * t + 16 / 116);
  return [116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))];
}

/** CIE76 colour difference between two 0xRRGGBB colours as seen with `vision`. */
export function deltaE(a: number, b: number, vision: ColourVision = 'normal'): number {
  const la = lab(simulateLinear(a, vision));
  const lb = lab(simulateLinear(b, vision));
  return Math.hypot(la[0] - lb[0], la[1] - lb[1], la[2] - lb[2]);
}
