/**
 * The wait-for graph of a stuck run, and the words that explain it.
 *
 * Contract
 * - A blocking wait may say which core's action would release it (`WaitOn`: a core id and what
 *   that core should write, e.g. its "ready flag"); the core stores it in its scheduler fields
 *   (S.waitsFor, S.waitWhat; -1 = nobody named). A flag wait whose poll reads a copy in the
 *   core's L1 instead of memory (CL1INVMB skipped) stores the value of that copy in
 *   S.waitL1Value (NaN for a wait that reads memory): the copy cannot change while the core
 *   spins, so nothing any core does releases it.
 * - `findWaitForCycle(edges)` is pure: `edges[i]` is the core core i waits for (-1: none). It
 *   returns the cycle reached first from the lowest core id, starting at the smallest id on the
 *   cycle and ending where it started (e.g. [0, 1, 0]), or null when the graph has none.
 * - `waitForEdges(views, participants)` reads the graph of the blocked participants from the
 *   shared views; `describeDeadlock(views, participants)` is the failure message the committer
 *   gives when no core can run: it always starts with "deadlock:", names the wait-for cycles and
 *   any stale L1 copy of an awaited flag (with the value in memory and in the copy), and falls
 *   back to the list of waiting cores ("deadlock: no core can run (...)") when a wait named no
 *   core.
 * Reads only committed state; deterministic; never called on a hot path.
 */
import { CORE_SLOTS, S, type Views } from './layout';
import { readCommittedLine, valueAt } from './memory';
import { BLOCK_REASON_NAMES, BlockReason, C, CoreState, LINE_WORDS, SPACE_SHIFT } from './vocabulary';

/** What the awaited core should do (stored as an index in S.waitWhat). */
export const WAIT_WHAT = ['flag', 'ready flag', 'sent flag', 'reply flag', 'barrier flag'] as const;
export type WaitWhat = (typeof WAIT_WHAT)[number];

/** Who releases a blocking wait: core `core`, by writing its `what` (default 'flag'). */
export interface WaitOn {
  core: number;
  what?: WaitWhat;
}

/** Index of `what` in WAIT_WHAT (0 when absent). */
export function waitWhatCode(what: WaitWhat | undefined): number {
  const i = what === undefined ? 0 : WAIT_WHAT.indexOf(what);
  return i < 0 ? 0 : i;
}

/**
 * The first wait-for cycle of a functional graph (each node waits for at most one other):
 * walks from each node in ascending order, marking the walk, until it meets its own walk (a
 * cycle), an earlier walk or a node that waits for nobody. Returns the cycle from its smallest
 * node back to it ([a, b, ..., a]), or null. O(nodes).
 */
export function findWaitForCycle(edges: ArrayLike<number>): number[] | null {
  const all = findWaitForCycles(edges);
  return all.length > 0 ? all[0]! : null;
}

/** Every cycle of the functional graph `edges` (see findWaitForCycle), ordered by their smallest node. */
export function findWaitForCycles(edges: ArrayLike<number>): number[][] {
  const n = edges.length;
  const walk = new Int32Array(n).fill(-1); // the start of the walk that visited a node
  const cycles: number[][] = [];
  for (let start = 0; start < n; start++) {
    if (walk[start] !== -1) continue;
    let v = start;
    while (v >= 0 && v < n && walk[v] === -1) {
      walk[v] = start;
      v = edges[v]!;
    }
    if (v < 0 || v >= n || walk[v] !== start) continue; // nobody, or an earlier walk
    const cycle: number[] = [];
    let u = v;
    do {
      cycle.push(u);
      u = edges[u]!;
    } while (u !== v);
    let k = 0;
    for (let i = 1; i < cycle.length; i++) if (cycle[i]! < cycle[k]!) k = i;
    const rotated = [...cycle.slice(k), ...cycle.slice(0, k)];
    rotated.push(rotated[0]!);
    cycles.push(rotated);
  }
  return cycles.sort((a, b) => a[0]! - b[0]!);
}

/** The wait-for graph of the blocked participants: edges[core] = the core it waits for, or -1. */
export function waitForEdges(v: Views, participants: readonly number[]): Int32Array {
  const edges = new Int32Array(v.layout.cores).fill(-1);
  for (const core of participants) {
    const b = core * CORE_SLOTS;
    if (v.core[b + C.state] !== CoreState.Blocked || v.core[b + C.blockedOn] !== BlockReason.Flag) continue;
    if (!Number.isNaN(v.core[b + S.waitL1Value]!)) continue; // spins on its own L1 copy: no core releases it
    const w = v.core[b + S.waitsFor]!;
    if (w >= 0 && w < edges.length && w !== core) edges[core] = w;
  }
  return edges;
}

/** The deadlock message (see the contract). */
export function describeDeadlock(v: Views, participants: readonly number[]): string {
  const edges = waitForEdges(v, participants);
  const cycles = findWaitForCycles(edges);
  const stale: string[] = []; // copies that differ from memory: the cause
  const copies: string[] = []; // copies that still match memory: these would miss the change too
  const line32 = new Uint32Array(LINE_WORDS);
  const line8 = new Uint8Array(line32.buffer);
  for (const core of participants) {
    const b = core * CORE_SLOTS;
    if (v.core[b + C.state] !== CoreState.Blocked || v.core[b + C.blockedOn] !== BlockReason.Flag) continue;
    const cached = v.core[b + S.waitL1Value]!;
    if (Number.isNaN(cached)) continue;
    readCommittedLine(v, v.core[b + S.waitLine]!, line32, 0);
    const inMemory = valueAt(line8, v.core[b + S.waitOffset]!, v.core[b + S.waitSize]!);
    const w = v.core[b + S.waitsFor]!;
    const whose = w >= 0 ? `core ${w}'s ${WAIT_WHAT[v.core[b + S.waitWhat]!] ?? 'flag'}` : 'the flag';
    if (inMemory === cached) copies.push(`core ${core} spins on a copy of ${whose} in its L1 (memory and its L1 hold ${cached}): CL1INVMB was skipped`);
    else stale.push(`core ${core} reads a stale copy of ${whose} in its L1 (memory holds ${inMemory}, its L1 holds ${cached}): CL1INVMB was skipped`);
  }
  stale.push(...copies);
  const named = (core: number) => {
    const b = core * CORE_SLOTS;
    return `core ${core} waits for core ${edges[core]}'s ${WAIT_WHAT[v.core[b + S.waitWhat]!] ?? 'flag'}`;
  };
  const parts: string[] = [];
  if (cycles.length > 0) {
    const [first, ...more] = cycles;
    let text = `wait-for cycle ${first!.map((c) => `core ${c}`).join(' -> ')} (${first!.slice(0, -1).map(named).join('; ')})`;
    if (more.length > 0)
      text += `; ${more.length} more cycle${more.length === 1 ? '' : 's'}: ${more
        .slice(0, 7)
        .map((cy) => cy.map((c) => `core ${c}`).join(' -> '))
        .join(', ')}${more.length > 7 ? ', ...' : ''}`;
    parts.push(text);
  }
  if (stale.length > 0) parts.push(stale.slice(0, 8).join('; '));
  if (parts.length > 0) return `deadlock: ${parts.join('; ')}`;
  // no core named: the cores and what they wait on
  const waits: string[] = [];
  for (const core of participants) {
    const b = core * CORE_SLOTS;
    if (v.core[b + C.state] !== CoreState.Blocked) continue;
    const reason = BLOCK_REASON_NAMES[v.core[b + C.blockedOn]!] ?? 'unknown';
    if (v.core[b + C.blockedOn] === BlockReason.Flag) {
      const line = v.core[b + S.waitLine]!;
      const space = line >>> SPACE_SHIFT;
      waits.push(`core ${core} waits on a flag (space ${space}, line 0x${(line & 0x0fffffff).toString(16)}, offset ${v.core[b + S.waitOffset]})`);
    } else waits.push(`core ${core} waits at a ${reason}`);
    if (waits.length >= 8) break;
  }
  return `deadlock: no core can run (${waits.join('; ')})`;
}
