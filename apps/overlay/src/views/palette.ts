/**
 * Colours for everything a view draws. One place, so the map, the projector and the stream agree and the
 * e2e test can ask what colour a stand should be. Colours are 0xRRGGBB; opacity 0..1.
 */
import type { AreaTerrainKind, LinearTerrainKind, SideId, StyleId } from '@muster/rules';

export interface Paint {
  readonly color: number;
  readonly opacity: number;
}

export const TABLE_CLOTH = 0x5d7a45;
export const MAP_BACKGROUND = 0x1c2126;

export const AREA_PAINT: Record<AreaTerrainKind, Paint> = {
  rough: { color: 0x9a8a5a, opacity: 0.85 },
  swamp: { color: 0x4f7f78, opacity: 0.85 },
  'open-woods': { color: 0x3f6a32, opacity: 0.9 },
  'thick-woods': { color: 0x24461f, opacity: 0.95 },
  thicket: { color: 0x556b2f, opacity: 0.9 },
  farm: { color: 0xc8b273, opacity: 0.8 },
  town: { color: 0x8c857b, opacity: 0.9 },
  city: { color: 0x6e6863, opacity: 0.95 },
};

export const LINEAR_PAINT: Record<LinearTerrainKind, Paint & { readonly widthIn: number }> = {
  fence: { color: 0x7a5a3a, opacity: 1, widthIn: 0.25 },
  wall: { color: 0xb0aaa0, opacity: 1, widthIn: 0.35 },
  brook: { color: 0x5aa0d8, opacity: 1, widthIn: 0.35 },
  stream: { color: 0x3f8fd0, opacity: 1, widthIn: 0.6 },
  river: { color: 0x2f6fb8, opacity: 1, widthIn: 2 },
  'hasty-works': { color: 0x8b6b43, opacity: 1, widthIn: 0.4 },
  entrenchment: { color: 0x6b4b2b, opacity: 1, widthIn: 0.6 },
  abatis: { color: 0x5b3b1b, opacity: 1, widthIn: 0.4 },
  'chevaux-de-frise': { color: 0x4b3b2b, opacity: 1, widthIn: 0.4 },
  'sunken-road': { color: 0x8a6f4a, opacity: 1, widthIn: 1 },
};

export const ROAD_PAINT: Paint = { color: 0xcdb27f, opacity: 1 };

/** Elevation level n is drawn n times over, each pass lightening the cloth a little: contour-like bands. */
export const ELEVATION_PAINT: Paint = { color: 0xe8dca0, opacity: 0.22 };
export const ELEVATION_EDGE: Paint & { readonly widthIn: number } = { color: 0x3b2f1a, opacity: 0.55, widthIn: 0.12 };

export interface SidePaint {
  readonly fill: number;
  readonly front: number;
  readonly text: string;
}

// Sides told apart by lightness as well as hue (dark blue, light grey, orange, pink), so they stay apart
// from each other and from an olive cloth under red-green colour blindness; red stands on olive did not.
const SIDE_PAINTS: readonly SidePaint[] = [
  { fill: 0x2f5fd0, front: 0xffffff, text: '#cfe0ff' },
  { fill: 0xd8d4c8, front: 0x000000, text: '#f2efe6' },
  { fill: 0xe69f00, front: 0x000000, text: '#ffe0a0' },
  { fill: 0xcc79a7, front: 0x000000, text: '#ffd6ee' },
];

/** Conventional colours for the usual names; any other side gets the next colour by first appearance. */
const NAMED_SIDES: Record<string, number> = { union: 0, us: 0, north: 0, blue: 0, confederate: 1, csa: 1, south: 1, grey: 1, gray: 1, red: 1 };

export function sidePaint(side: SideId, allSides: readonly SideId[]): SidePaint {
  const named = NAMED_SIDES[side.toLowerCase()];
  const index = named ?? Math.max(0, allSides.indexOf(side));
  return SIDE_PAINTS[index % SIDE_PAINTS.length]!;
}

export const UNKNOWN_SIDE_PAINT: SidePaint = { fill: 0x9a9a9a, front: 0x000000, text: '#eeeeee' };

/**
 * How a style is drawn: fill (for areas) and stroke. `strokeWidthIn` 0 means no stroke. `dashIn` (dash,
 * gap, inches) backs the colour up with a pattern so two styles differ even to someone who cannot tell
 * their colours apart; `legend` is what the legend calls it (a look, not a rule name).
 */
export interface StylePaint {
  readonly fill: Paint | null;
  readonly stroke: Paint;
  readonly strokeWidthIn: number;
  readonly dashIn?: readonly [number, number];
  readonly legend: string;
}

/**
 * Colour-blind-safe picks (Okabe–Ito hues plus cyan, magenta and white), checked pairwise under
 * deuteranopia, protanopia and tritanopia simulation in `palette.test.ts`. Pairs that still come close
 * under one of them (charge vs arc, link broken vs reach) differ by dash.
 */
export const STYLE_PAINT: Record<StyleId, StylePaint> = {
  reach: { fill: { color: 0x33e0ff, opacity: 0.2 }, stroke: { color: 0x33e0ff, opacity: 0.95 }, strokeWidthIn: 0.12, legend: 'Move: where it can go' },
  'reach-road': { fill: { color: 0x56b4e9, opacity: 0.16 }, stroke: { color: 0x56b4e9, opacity: 0.9 }, strokeWidthIn: 0.1, dashIn: [1, 0.5], legend: 'Move by road' },
  blocked: { fill: { color: 0xffa0a0, opacity: 0.22 }, stroke: { color: 0xffa0a0, opacity: 0.9 }, strokeWidthIn: 0.1, dashIn: [0.2, 0.25], legend: 'May not go' },
  // Arcs are outlined (dashed) over a faint fill: the fills of one style blend once where they overlap,
  // and the outline says where the arc ends without washing the cloth.
  arc: { fill: { color: 0xf0e442, opacity: 0.1 }, stroke: { color: 0xf0e442, opacity: 0.85 }, strokeWidthIn: 0.06, dashIn: [0.5, 0.35], legend: 'Fire arc' },
  'arc-artillery': { fill: { color: 0xf0e442, opacity: 0.1 }, stroke: { color: 0xf0e442, opacity: 0.85 }, strokeWidthIn: 0.08, dashIn: [1.4, 0.35], legend: 'Artillery arc' },
  target: { fill: null, stroke: { color: 0xffffff, opacity: 0.9 }, strokeWidthIn: 0.1, dashIn: [0.45, 0.3], legend: 'Can fire at' },
  'target-priority': { fill: null, stroke: { color: 0xffffff, opacity: 1 }, strokeWidthIn: 0.2, legend: 'Must fire at' },
  charge: { fill: { color: 0xe69f00, opacity: 0.18 }, stroke: { color: 0xe69f00, opacity: 0.95 }, strokeWidthIn: 0.14, legend: 'Charge reach' },
  link: { fill: null, stroke: { color: 0x56b4e9, opacity: 0.9 }, strokeWidthIn: 0.1, legend: 'Command link' },
  'link-broken': { fill: null, stroke: { color: 0xff4fd8, opacity: 0.95 }, strokeWidthIn: 0.1, dashIn: [0.3, 0.3], legend: 'Link broken' },
  formation: { fill: null, stroke: { color: 0xffffff, opacity: 0.7 }, strokeWidthIn: 0.06, dashIn: [0.15, 0.2], legend: 'Formation' },
  label: { fill: null, stroke: { color: 0xffffff, opacity: 1 }, strokeWidthIn: 0, legend: 'Label' },
  warning: { fill: { color: 0xffa0a0, opacity: 0.25 }, stroke: { color: 0xffa0a0, opacity: 1 }, strokeWidthIn: 0.15, legend: 'Warning' },
  measure: { fill: null, stroke: { color: 0xffffff, opacity: 1 }, strokeWidthIn: 0.1, legend: 'Measure' },
};

/**
 * Ghosts (where a stand stood before its last move): a lavender outline and a thin dashed line to where it
 * is now. Outline only, so a ghost never reads as a stand, and lavender is none of the styles' hues. The
 * outline is 0.15": two pixels on a desktop map (~13 px per inch with a replay's timeline bar above the
 * table), where 0.1" was a single faint pixel.
 */
export const GHOST_PAINT = { color: 0xc9b8ff, opacity: 0.95, outlineWidthIn: 0.15, linkWidthIn: 0.05, linkDashIn: [0.3, 0.2] as const };

/** Draw order of layers, bottom first: areas of reach under arcs under lines and labels. */
export const LAYER_ORDER = ['movement', 'charge', 'fire', 'formation', 'command', 'measure', 'warnings', 'labels'] as const;

export function cssColor(color: number): string {
  return `#${color.toString(16).padStart(6, '0')}`;
}
