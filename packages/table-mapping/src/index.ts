// Table ↔ pixel geometry: one copy for vision (image → table), the service and the views (table → screen,
// table → projector), and the projector pattern both the page and the solver read.
export * from './homography.ts';
export * from './projectorPattern.ts';
