/** The DSM applications of paper 004 (Table 1), by the names the `dsm` workload's `app` parameter takes. */
import type { DsmApp } from '../api';
import { barnesHut } from './barnes-hut';
import { gcTree } from './gc-tree';
import { sor } from './sor';
import { waterNsq } from './water-nsq';
import { waterSpatial } from './water-spatial';

export const dsmApps = {
  sor,
  'water-nsq': waterNsq,
  'barnes-hut': barnesHut,
  'water-spatial': waterSpatial,
  'gc-tree': gcTree,
} as const satisfies Record<string, DsmApp>;

/** SOR's program variant (Table 7's hoisting), which the workload passes for `sorHoisting`. */
export { sorProgram, type SorSize } from './sor';

export type DsmAppName = keyof typeof dsmApps;
export const DSM_APP_NAMES = Object.keys(dsmApps) as DsmAppName[];
