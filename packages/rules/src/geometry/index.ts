/** Geometry in table inches: angles, footprints, distances, intersections, wedges, sight lines, polygons. */
export * from './angles.ts';
export * from './vec.ts';
export * from './footprint.ts';
export * from './distance.ts';
export * from './intersect.ts';
export * from './wedge.ts';
export * from './lineOfSight.ts';
export * from './frontLine.ts';
export * from './polygon.ts';
