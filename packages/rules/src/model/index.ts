export * from './units.ts';
export * from './tableState.ts';
