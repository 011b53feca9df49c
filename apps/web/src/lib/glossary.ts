/**
 * The lab's terms, defined once: shown on hover or focus where a term appears (components/Term)
 * and listed in the glossary panel. Plain words for a newcomer; each definition says what the
 * lab models, not a chip's numbers (those live in the chip presets, with their sources).
 */
export interface GlossaryEntry {
  /** how the term is written */
  term: string;
  definition: string;
}

export const GLOSSARY = {
  mpb: {
    term: 'MPB',
    definition:
      'Message-passing buffer: a small on-chip memory on each tile of a chip like the SCC. Cores send messages by writing into a buffer (their own or the receiver’s) and reading from it, with flags that say when data is ready; it is not kept coherent by hardware.',
  },
  flit: {
    term: 'flit',
    definition:
      'Flow-control unit: the piece of a packet that a mesh link moves in one cycle. A message becomes a packet of one or more flits; "flits injected" counts them once when they enter the mesh, "flit-hops" counts each flit once per link it crosses.',
  },
  flitHop: {
    term: 'flit-hop',
    definition: 'One flit crossing one mesh link. A packet of 3 flits that travels 4 hops is 12 flit-hops: the load it puts on the links.',
  },
  hop: {
    term: 'hop',
    definition: 'One step between neighbouring routers of the mesh. Messages and memory requests are routed X first, then Y; each hop adds router and link delay.',
  },
  epoch: {
    term: 'epoch',
    definition:
      'One step of the simulation: every core runs up to the same simulated time (one quantum), then the shared state (caches, links, memory controllers) is settled in a fixed order. Results do not depend on how cores are spread over workers.',
  },
  quantum: {
    term: 'quantum',
    definition: 'The length of an epoch in simulated time (quantumNs). Shorter quanta are more exact for tightly coupled programs and slower to simulate.',
  },
  divisor: {
    term: 'divisor',
    definition:
      'Clock divisor: a voltage island’s core clock is a reference clock divided by this number (a larger divisor is a slower clock). The chip lowers the island’s voltage when the clock allows it, and power falls with voltage squared times frequency.',
  },
  island: {
    term: 'voltage island',
    definition: 'A group of tiles that share one supply voltage and clock divisor; changing it changes the speed and power of all their cores at once.',
  },
  lut: {
    term: 'LUT',
    definition:
      'Lookup table: on the SCC each core translates its physical addresses through its own table of 16 MB pages, each mapped to a memory controller (private memory), to shared memory, or to the message-passing buffers. It decides which controller serves an access.',
  },
  memoryController: {
    term: 'memory controller',
    definition:
      'The unit at the mesh edge that serves DRAM reads and writes. Requests queue there; a request to an open row (a row hit) is served faster than one that must close a row and open another.',
  },
  homing: {
    term: 'homing',
    definition:
      'On the TILE64 a homed page has one home tile per line: the line is cached in the home tile’s L2 and other tiles reach it over the mesh, so data stays coherent without copies.',
  },
  writeNotice: {
    term: 'write notice',
    definition:
      'In lazy release consistency (distributed shared memory), a message that a page or object was written during an interval; receivers invalidate their copy and fetch the changes when they next touch it.',
  },
  coherence: {
    term: 'coherence',
    definition:
      'Keeping every cached copy of a memory line up to date. Chips without it (the SCC) leave it to software: flush or invalidate caches before sharing data, or use the MPBs.',
  },
  ipc: {
    term: 'IPC',
    definition: 'Instructions per cycle: instructions a core retired divided by its clock cycles over the same wall-clock time (waiting counts as cycles).',
  },
  digest: {
    term: 'digest',
    definition:
      'A 64-bit fingerprint of every simulated result of a run. The same experiment gives the same digest on any machine and any worker layout: a link carries its run’s digest so a rerun can prove it reproduced it.',
  },
  participants: {
    term: 'participants',
    definition: 'The cores that run the workload’s program; the others stay idle.',
  },
} satisfies Record<string, GlossaryEntry>;

export type TermId = keyof typeof GLOSSARY;

export const TERM_IDS = Object.keys(GLOSSARY) as TermId[];
