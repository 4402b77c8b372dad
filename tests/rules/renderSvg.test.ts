import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseTableState } from '@muster/rules';
import { renderSceneSvg } from '../../fixtures/rules/renderSvg.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

describe('renderSceneSvg', () => {
  it('draws every stand with its front edge, y flipped so the near edge is at the bottom', () => {
    const state = parseTableState(JSON.parse(readFileSync(join(root, 'fixtures/rules/in/column-on-road.json'), 'utf8')));
    const svg = renderSceneSvg(state, undefined, undefined, 10);
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg).toContain(`width="${state.table.widthIn * 10}" height="${state.table.depthIn * 10}"`);
    // One footprint polygon per stand, plus one polygon per area/elevation.
    const polygons = svg.match(/<polygon /g)?.length ?? 0;
    expect(polygons).toBe(state.stands.length + state.terrain.areas.length + state.terrain.elevations.length);
    // The road runs from y = 0 (bottom, SVG y = 360) to y = 36 (top, SVG y = 0).
    expect(svg).toContain('points="240.0,360.0 240.0,0.0"');
  });
});
