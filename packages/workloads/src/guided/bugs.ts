/**
 * "Break the protocol": guided experiments that switch on one protocol bug each (a workload's
 * `bug` parameter, WorkloadDef.bugs), so a class sees why each rule of the SCC's protocols
 * exists. Each entry says what should go wrong; the run shows that it does: a deadlock stops
 * with its wait-for cycle (drawn on the mesh), a skipped CL1INVMB stops naming the stale L1
 * copy, a skipped flush and the x86 LOCK prefix end normally with rows that count the damage.
 * The gallery heads these entries "Break the protocol" (chart.ts familyOf: an experiment with a
 * bug on). Contract: data only, validated by guided.test.ts like every entry.
 */
import { exp, sweep, type GuidedExperiment } from './types';

/** The gallery heading of the entries here. */
export const BUGS_GROUP = 'Break the protocol';

export const protocolBugs: GuidedExperiment[] = [
  {
    id: 'bug-lock-prefix',
    title: 'A shared counter with the x86 LOCK prefix',
    summary:
      "Eight cores each add 1 to one shared word 50 times with `lock incl`. On a PC that is atomic; the SCC's mesh does not carry the P54C's LOCK signal to other cores, so each increment is a plain read, add, write.",
    source: 'scc.md section 2 (test-and-set registers, no coherence); RCCE_acquire_lock',
    whatToLookFor: [
      'The row: expected = 400 increments performed, observed = what the word holds after a final barrier, lostUpdates = the difference, far above 0.',
      'The badge above the chip says a protocol bug is on and what it should break.',
      'Set bug to none and run again: the test-and-set lock around each increment loses nothing (lostUpdates = 0), at a much higher cost in time.',
    ],
    experiments: [exp('shared-counter', { cores: 8, increments: 50, bug: 'lock-prefix' })],
    embed: { control: { param: 'bug' } },
  },
  {
    id: 'bug-lock-prefix-cores',
    title: 'Lost updates vs cores (LOCK prefix)',
    summary: 'The LOCK-prefixed shared counter on 1 to 16 cores: one core loses nothing, every extra core overwrites more of the others\u2019 increments.',
    whatToLookFor: [
      'lostUpdates is 0 on one core and grows with the cores: every core works on its own view of the word until the others\u2019 writes reach it.',
      'How many are lost depends on how long a write takes to become visible (here, at least until the next epoch boundary): try a smaller quantum.',
    ],
    experiments: sweep('shared-counter', { increments: 50, bug: 'lock-prefix' }, 'cores', [1, 2, 4, 8, 16]),
    sweep: { param: 'cores', values: [1, 2, 4, 8, 16] },
    chart: { x: 'cores', y: 'lostUpdates' },
  },
  {
    id: 'bug-rcce-deadlock',
    title: 'Both cores send first: an RCCE deadlock',
    summary:
      "RCCE's send is synchronous: it copies the message into the sender's MPB, sets the receiver's sent flag and waits for the receiver's ready flag. If both cores of a pair send first, each waits for the other for ever.",
    source: 'scc.md section 2 (RCCE send / receive)',
    whatToLookFor: [
      'The run stops with an error that says deadlock and names the wait-for cycle: core 0 waits for core 2\u2019s ready flag, core 2 for core 0\u2019s.',
      'The chip view draws the cycle as arrows between the two cores.',
      'Set bug to none and run again: the lower core id sends first, the other receives first, and the run finishes.',
    ],
    experiments: [exp('rcce-pair', { benchmark: 'shift', rounds: 4, bug: 'deadlock' })],
    embed: { control: { param: 'bug' } },
  },
  {
    id: 'bug-stale-flag',
    title: 'Skip CL1INVMB: a flag that never changes',
    summary:
      'MPB lines are cached in L1 (the MPBT memory type) and the hardware never invalidates them: RCCE runs CL1INVMB before every flag read. Without it, the partner polls the copy of the flag in its own L1.',
    source: 'scc.md section 2 (MPBT, CL1INVMB)',
    whatToLookFor: [
      'The run stops: core 2 reads a stale copy of the flag in its L1 (memory holds 1, its L1 holds 0).',
      'Nothing is wrong with the flag in the MPB: the write arrived; the reader never looks at it again.',
      'Set bug to none: the poll loop invalidates first, reads the MPB and the ping-pong finishes.',
    ],
    experiments: [exp('mpb-pingpong', { hops: 1, bytes: 32, iterations: 4, bug: 'skip-cl1invmb' })],
    embed: { control: { param: 'bug' } },
  },
  {
    id: 'bug-stale-flag-rcce',
    title: 'Skip CL1INVMB inside RCCE',
    summary: "The RCCE pair exchange with flag reads that skip CL1INVMB: RCCE's flags live in one MPB line per core, and a stale copy of that line hides the partner's sent flag.",
    whatToLookFor: [
      'The error names the core that reads a stale copy of its flag line (the flag version in memory and in its L1) and which flag it waits for.',
      'Compare with the deadlock entry: here nobody waits in a cycle; one core simply never sees the write.',
    ],
    experiments: [exp('rcce-pair', { benchmark: 'shift', rounds: 4, bug: 'skip-cl1invmb' })],
  },
  {
    id: 'bug-skip-flush',
    title: 'Cached shared memory without the flush',
    summary:
      'The cached-shared pipeline flushes after writing each chunk, because the SCC keeps no coherence between cores. Skip that flush and the +1 of each stage stays in dirty lines of its own cache.',
    source: 'paper 003 lines 4059-4066 (two flushes per chunk)',
    whatToLookFor: [
      'The run ends normally, but the row says correct = false and wrongBytes counts the output bytes that differ from input + stages.',
      'With bug none the same pipeline is correct (and slower: half of its flushes are back).',
    ],
    experiments: [exp('pipeline', { mode: 'cached-shared', stages: 4, dataBytes: 65536, chunkBytes: 16384, flush: 'engine', bug: 'skip-flush' })],
    embed: { control: { param: 'bug' } },
  },
];
