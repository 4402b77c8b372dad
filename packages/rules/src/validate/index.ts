export * from './tableStateError.ts';
export * from './parseTableState.ts';
