/**
 * The rooms keep to the flow (../shared/ARCHITECTURE.md): each app and package imports other workspaces
 * only by package name and only those downstream of it, no file reaches into another room's source, the
 * rules stay pure, and there are no import circles.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importCycles, readImportGraph, type ImportEdge } from './importGraph.ts';

const root = join(import.meta.dirname, '../..');

/** Which workspaces each workspace may import: the flow, one direction. */
const ALLOWED_WORKSPACES: Record<string, readonly string[]> = {
  'packages/rules': [],
  'packages/protocol': ['@muster/rules'],
  'packages/table-mapping': ['@muster/rules'],
  'apps/vision': ['@muster/rules', '@muster/table-mapping'],
  'apps/overlay': ['@muster/rules', '@muster/protocol', '@muster/table-mapping'],
  'apps/server': ['@muster/rules', '@muster/protocol', '@muster/table-mapping', '@muster/vision'],
};
const ROOMS = Object.keys(ALLOWED_WORKSPACES);
const isTest = (file: string): boolean => /\.test\.ts$/.test(file);
const roomOf = (file: string): string | undefined => ROOMS.find((r) => file.startsWith(`${r}/`));

const edges = readImportGraph(root, [...ROOMS, 'fixtures']);
const describeEdge = (e: ImportEdge): string => `${e.from} imports '${e.specifier}'`;

describe('layout', () => {
  it('reads the graph it checks (a known edge of each kind is there)', () => {
    expect(edges.some((e) => e.from === 'apps/server/src/compose/openTrackedDetector.ts' && e.specifier === '@muster/vision')).toBe(true);
    expect(edges.some((e) => e.from.startsWith('apps/overlay/src/') && e.specifier === '@muster/table-mapping')).toBe(true);
    expect(edges.some((e) => e.from === 'apps/vision/src/detect/frameDetector.ts' && e.to === 'apps/vision/src/detect/markerPose.ts')).toBe(true);
  });

  it('finds a cycle when there is one', () => {
    const edge = (from: string, to: string): ImportEdge => ({ from, to, specifier: to });
    expect(importCycles([edge('a', 'b'), edge('b', 'c'), edge('c', 'a'), edge('c', 'd')])).toEqual([['a', 'b', 'c']]);
    expect(importCycles([edge('a', 'b'), edge('b', 'c')])).toEqual([]);
  });

  it('no file reaches into another room by path (workspaces meet through package names)', () => {
    const offences = edges.filter((e) => {
      const room = roomOf(e.from);
      if (!room || e.to === null || !e.specifier.startsWith('.')) return false;
      if (e.to.startsWith(`${room}/`)) return false;
      // Shared data and the frame generator are open to every room but the pure rules' own code.
      const shared = e.to.startsWith('fixtures/') || e.to.startsWith('calibration/');
      return !(shared && (room !== 'packages/rules' || isTest(e.from)));
    });
    expect(offences.map(describeEdge)).toEqual([]);
  });

  it('each workspace imports only the workspaces downstream of it, and declares them', () => {
    const offences: string[] = [];
    for (const room of ROOMS) {
      const pkg = JSON.parse(readFileSync(join(root, room, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
      for (const e of edges) {
        if (roomOf(e.from) !== room || !e.specifier.startsWith('@muster/')) continue;
        const name = e.specifier.split('/').slice(0, 2).join('/');
        if (!ALLOWED_WORKSPACES[room]!.includes(name)) offences.push(`${describeEdge(e)}: ${room} may import only ${ALLOWED_WORKSPACES[room]!.join(', ') || 'nothing'}`);
        else if (!pkg.dependencies?.[name]) offences.push(`${describeEdge(e)}: ${name} is not in ${room}/package.json dependencies`);
      }
    }
    expect(offences).toEqual([]);
  });

  it('the rules stay pure, vision holds no sockets, the views no Node', () => {
    const offences = edges.filter((e) => {
      if (isTest(e.from) || e.specifier.startsWith('.') || e.specifier.startsWith('@muster/')) return false;
      const room = roomOf(e.from);
      if (room === 'packages/rules') return e.specifier !== 'polygon-clipping';
      if (room === 'apps/vision') return ['ws', 'express', 'three'].includes(e.specifier);
      if (room === 'apps/overlay') return e.from.startsWith('apps/overlay/src/') && e.specifier.startsWith('node:');
      return false;
    });
    expect(offences.map(describeEdge)).toEqual([]);
  });

  it('has no import circles (type-only and dynamic imports count)', () => {
    const cycles = importCycles(edges.filter((e) => !isTest(e.from)));
    expect(cycles.map((c) => c.join(' ⇄ '))).toEqual([]);
  });
});
