import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { loadTableProfile, parseTableProfile, TableProfileError } from './tableProfile.ts';
import { detectorParamsFor, expectedTagSidePx } from './detectorParams.ts';

const defaultPath = fileURLToPath(new URL('../../../../calibration/tables/default-72x48.json', import.meta.url));

const good = {
  width: 72,
  height: 48,
  dictionary: 'DICT_4X4_50',
  markerSize: 0.5,
  anchors: [
    { id: 0, x: 3, y: 3, size: 2 },
    { id: 1, x: 69, y: 3, size: 2 },
    { id: 2, x: 69, y: 45, size: 2, heading: -90 },
    { id: 3, x: 3, y: 45, size: 2 },
  ],
};

describe('parseTableProfile', () => {
  it('normalises a good profile: inches, default heading, stand ids exclude anchors', () => {
    const p = parseTableProfile(good, 't.json');
    expect(p.widthIn).toBe(72);
    expect(p.anchors[0]!.headingDeg).toBe(90);
    expect(p.anchors[2]!.headingDeg).toBe(270);
    expect(p.standIds).toHaveLength(46);
    expect(p.standIds[0]).toBe(4);
    expect(p.markerBits).toBe(4);
  });

  it.each([
    [{ ...good, width: -1 }, /t\.json: width must be a positive number/],
    [{ ...good, dictionary: 'DICT_9X9' }, /dictionary must be one of/],
    [{ ...good, anchors: good.anchors.slice(0, 3) }, /at least 4/],
    [{ ...good, anchors: [...good.anchors.slice(0, 3), { id: 0, x: 1, y: 1, size: 1 }] }, /anchor id 0 is listed twice/],
    [{ ...good, anchors: [...good.anchors.slice(0, 3), { id: 60, x: 1, y: 1, size: 1 }] }, /anchors\[3\]\.id must be an integer id from 0 to 49/],
    [{ ...good, anchors: [...good.anchors.slice(0, 3), { id: 9, x: 100, y: 1, size: 1 }] }, /outside the 72×48/],
    [{ ...good, standIds: [1, 5] }, /standIds contains 1, which is an anchor/],
    [[1, 2], /must be a JSON object/],
  ])('rejects bad input with a message naming the field (%#)', (json, message) => {
    expect(() => parseTableProfile(json, 't.json')).toThrow(TableProfileError);
    expect(() => parseTableProfile(json, 't.json')).toThrow(message);
  });

  it('loads the default profile and names the file in errors', () => {
    const p = loadTableProfile(defaultPath);
    expect(p.dictionary).toBe('DICT_4X4_50');
    expect(p.anchors.map((a) => a.id)).toEqual([0, 1, 2, 3]);
    expect(() => loadTableProfile('/nonexistent/t.json')).toThrow(/\/nonexistent\/t\.json: cannot read/);
  });
});

describe('detectorParamsFor', () => {
  it('accepts half-inch tags at 4K that the OpenCV default perimeter rate would reject', () => {
    const p = parseTableProfile(good, 't.json');
    const tagPx = expectedTagSidePx(p, 3840, 2160);
    const params = detectorParamsFor(p, 3840, 2160);
    const perimeterRate = (4 * tagPx) / 3840;
    expect(perimeterRate).toBeLessThan(0.03);
    expect(params.minMarkerPerimeterRate).toBeLessThan(perimeterRate);
    expect(params.maxMarkerPerimeterRate).toBeGreaterThan((4 * tagPx * 4) / 3840);
    expect(params.adaptiveThreshWinSizeMin % 2).toBe(1);
    expect(params.adaptiveThreshWinSizeMax).toBeGreaterThanOrEqual(params.adaptiveThreshWinSizeMin);
  });
});
