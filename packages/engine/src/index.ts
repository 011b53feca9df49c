/** @manycore/engine: the DOM-free simulation core. */
export * from './units';
export * from './vocabulary';
export * from './topology';
export * from './rng';
export * from './digest';
export * from './chip-schema';
export * from './chip';
export * from './experiment';
export * from './layout';
export { Core, DUE, SimulationError, type Row } from './core';
export * from './workload';
export * from './simulation';
export * from './results';
export { PRESETS, sccPreset } from './presets/scc';
export { CTRL, LINK } from './weave';
export { ISL } from './power';
export { EVENT_ISLAND_DIVISOR, EVENT_TILE_DIVISOR } from './commit';
export type { WorkerRunResult } from './scheduler';
