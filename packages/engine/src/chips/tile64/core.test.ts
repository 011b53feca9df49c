import { describe, expect, it } from 'vitest';
import { runProgram } from '../../testing';
import { resolveChip } from '../registry';
import type { Tile64Core } from './core';
import type { Tile64Chip } from './resolve';
import { Tlb } from './tlb';

const PAGE = 65536;
const l2Key = (paddr: number) => Math.floor(paddr / 64);

describe('TILE64 preset', () => {
  it('has the numbers of tile64-roarvm.md section 1', () => {
    const chip = resolveChip('tile64') as Tile64Chip;
    expect(chip.family).toBe('tile64');
    expect(chip.topo).toMatchObject({ width: 8, height: 8, cores: 64, coresPerTile: 1 });
    expect(chip.config.caches.l1d).toMatchObject({ sizeBytes: 8192, lineBytes: 16, hitCycles: 2 });
    expect(chip.config.caches.l2).toMatchObject({ sizeBytes: 65536, lineBytes: 64, hitCycles: 8 });
    expect(chip.controllers).toBe(4);
    expect(chip.config.tlb.dataEntries).toBe(16);
    expect(chip.remoteBaseCycles).toBe(35);
    expect(chip.remotePerHopCycles).toBe(2);
  });

  it('rejects bad configs naming the component', () => {
    expect(() => resolveChip('tile64', { caches: { l2: { lineBytes: 48 } } })).toThrow(/chip\.caches\.l2\.lineBytes/);
    expect(() => resolveChip('tile64', { memory: { controllers: [{ x: 9, y: 0 }] } })).toThrow(/memory controller 0 at \(9,0\) is outside the 8x8 mesh/);
    expect(() => resolveChip('tile64', { tlb: { pages: 3 } })).toThrow(/chip\.tlb: unknown field: pages/);
  });
});

describe('TILE64 caching regimes', () => {
  it('a homed line is cached only at its home: never in a non-home L2, always in the home L2 after the home reads it', () => {
    const seen: Record<string, number> = {};
    runProgram<Tile64Core>({
      preset: 'tile64',
      cores: [0, 9],
      *program(core) {
        const page = core.sharedBase + 9 * PAGE; // homed on tile 9
        if (core.id === 9) for (let i = 0; i < 16; i++) core.load32(page + i * 64);
        yield* core.barrier();
        if (core.id === 0) {
          for (let i = 0; i < 16; i++) core.load32(page + i * 64);
          for (let i = 0; i < 16; i++) core.load32(page + i * 64); // again: still remote
          let found = 0;
          for (let s = 0; s < core.l2.slots; s++) if (core.l2.tags[s] !== -1) found++;
          seen.nonHomeL2Lines = found;
          seen.remoteReads = core.remoteReads;
        } else {
          const phys = (core.chip.sharedPhysBase + 9) * PAGE;
          seen.homeHas = core.l2.probe(l2Key(phys)) >= 0 ? 1 : 0;
        }
      },
    });
    expect(seen).toEqual({ nonHomeL2Lines: 0, remoteReads: 32, homeHas: 1 });
  });

  it('a read-only page is served from the local L2 after the first miss; a store to it is an error', () => {
    const t: number[] = [];
    runProgram<Tile64Core>({
      preset: 'tile64',
      cores: [0],
      *program(core) {
        const page = core.sharedBase + 20 * PAGE;
        core.mapRegion(page, PAGE, 'read-only');
        core.load32(page + 4096); // TLB
        for (const off of [0, 0]) {
          const t0 = core.now;
          core.load32(page + off);
          core.fence();
          t.push(Math.round((core.now - t0) / core.period));
        }
        // evict from L1 (same L1 set), keep in L2
        core.load32(page + 4096 * 2);
        core.load32(page + 4096 * 3);
        const t0 = core.now;
        core.load32(page);
        t.push(Math.round((core.now - t0) / core.period));
        expect(() => core.store32(page, 1)).toThrow(/store to read-only page at 0x80140000/);
        expect(core.remoteReads).toBe(0);
      },
    });
    expect(t[0]).toBeGreaterThan(60); // memory
    expect(t.slice(1)).toEqual([2, 8]); // own L1, then own L2
  });

  it('scalar loads read the word as the core sees memory: its own stores at once, others after the commit; remapping is seen at the next access', () => {
    const got: Record<string, number | string> = {};
    runProgram<Tile64Core>({
      preset: 'tile64',
      cores: [0, 1],
      *program(core) {
        const page = core.sharedBase + 1 * PAGE; // homed on tile 1: remote for core 0
        const own = core.sharedBase + 0 * PAGE; // homed on tile 0
        if (core.id === 0) {
          core.store32(page + 40, 0xdeadbeef); // above 2^31, at an address above 2^31
          core.store8(page + 45, 0xab);
          got.ownWord = core.load32(page + 40);
          got.ownBytes = [44, 45, 46, 47].map((a) => core.load8(page + a)).join(',');
          got.ownHigh = core.load8(page + 43);
          core.store32(own + 8, 7);
          got.untouched = core.load32(own + 12) + core.load32(own + 65532);
        }
        yield* core.barrier();
        if (core.id === 1) {
          got.otherWord = core.load32(page + 40);
          got.otherByte = core.load8(page + 45);
          got.otherOwnPage = core.load32(own + 8);
          core.load32(page + 4); // the page is decoded now; remapping it must be seen
          core.mapRegion(page, PAGE, 'read-only');
          try {
            core.store32(page + 4, 1);
          } catch (e) {
            got.readOnlyStore = (e as Error).message;
          }
          try {
            core.load32(0x7000_0000);
          } catch (e) {
            got.unmapped = (e as Error).message;
          }
        }
      },
    });
    expect(got).toEqual({
      ownWord: 0xdeadbeef,
      ownBytes: '0,171,0,0',
      ownHigh: 0xde,
      untouched: 0,
      otherWord: 0xdeadbeef,
      otherByte: 0xab,
      otherOwnPage: 7,
      readOnlyStore: 'core 1: store to read-only page at 0x80010004',
      unmapped: 'core 1: address 0x70000000 is not mapped',
    });
  });

  it('remote cost grows with distance: 35 + 2 per hop from the home L2', () => {
    const lat: number[] = [];
    runProgram<Tile64Core>({
      preset: 'tile64',
      cores: [0],
      *program(core) {
        for (const tile of [1, 2, 3, 7, 15, 63]) {
          const page = core.sharedBase + tile * PAGE;
          core.load32(page + 4096);
          core.load32(page); // fills the home L2 (seen at once by this core)
          const t0 = core.now;
          core.load32(page);
          core.fence();
          lat.push(Math.round((core.now - t0) / core.period));
        }
      },
    });
    expect(lat).toEqual([37, 39, 41, 49, 51, 63]); // hops 1, 2, 3, 7, 8, 14
  });

  it('a homed line read by another core before a commit is in the home L2 for every core after it', () => {
    const lat: Record<number, number> = {};
    runProgram<Tile64Core>({
      preset: 'tile64',
      cores: [0, 2],
      *program(core) {
        const page = core.sharedBase + 5 * PAGE; // homed on tile 5
        core.load32(page + 4096);
        if (core.id === 0) core.load32(page); // a miss at the home: filled there at commit
        yield* core.barrier();
        if (core.id === 2) {
          const t0 = core.now;
          core.load32(page);
          core.fence();
          lat[2] = Math.round((core.now - t0) / core.period);
        }
      },
    });
    expect(lat[2]).toBe(35 + 2 * 3); // tile 2 to tile 5: 3 hops, a home-L2 hit
  });
});

describe('TILE64 TLB', () => {
  it('16 entries of 64 KB: a stride over 32 pages misses every time; huge pages do not', () => {
    const tlb = new Tlb(16, 16);
    for (let r = 0; r < 3; r++) for (let p = 0; p < 32; p++) tlb.lookup(p * PAGE);
    expect(tlb.misses).toBe(96);
    const huge = new Tlb(16, 24);
    for (let r = 0; r < 3; r++) for (let p = 0; p < 32; p++) huge.lookup(p * PAGE);
    expect(huge.misses).toBe(1);
  });

  it('a miss runs the handler: missCycles of work per miss', () => {
    const busy: number[] = [];
    for (const hugePages of [false, true])
      runProgram<Tile64Core>({
        preset: 'tile64',
        chip: { tlb: { hugePages, missCycles: 100 } },
        cores: [0],
        *program(core) {
          for (let p = 0; p < 32; p++) core.load32(core.privateBase + p * PAGE);
          core.fence();
          busy.push(core.tlb.misses);
        },
      });
    expect(busy).toEqual([32, 1]);
  });
});

describe('TILE64 raw messages', () => {
  it('a 10-word message costs send 13 + 10, hops in flight, receive 2 + 10 cycles, and arrives intact', () => {
    const got: number[] = [];
    runProgram<Tile64Core>({
      preset: 'tile64',
      cores: [0, 3],
      *program(core) {
        if (core.id === 0) core.udnSend(3, [Math.round(core.now / core.period), 2, 3, 4, 5, 6, 7, 8, 9, 10]);
        else {
          const buf = new Uint32Array(14);
          const n = yield* core.udnReceive(0, buf);
          got.push(n, Math.round(core.now / core.period) - buf[0]!, ...buf.subarray(1, n));
        }
      },
    });
    expect(got).toEqual([10, 23 + 3 + 12, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('the doorbell: a token passed 0 -> 5 -> 2 -> 0 by whoever holds it, each hop taken by stamp, at the cost of a raw message', () => {
    const path: [number, number, number, number][] = [];
    runProgram<Tile64Core>({
      preset: 'tile64',
      cores: [0, 2, 5],
      *program(core) {
        const next: Record<number, number> = { 0: 5, 5: 2, 2: 0 };
        const buf = new Uint32Array(14);
        let stamp = 0;
        if (core.id === 0) core.udnPost(5, ++stamp, [0, Math.round(core.now / core.period)]);
        for (;;) {
          stamp = yield* core.udnAwait(stamp, buf);
          path.push([core.id, stamp, buf[0]!, Math.round(core.now / core.period) - buf[1]!]);
          if (stamp === 3) {
            // the last hop: tell the others to stop (stamps above what each has taken)
            for (const k of [2, 5]) core.udnPost(k, 4, [99, 0]);
            return;
          }
          if (buf[0] === 99) return;
          core.udnPost(next[core.id]!, stamp + 1, [core.id, Math.round(core.now / core.period)]);
        }
      },
    });
    // send 13 + 2 words, hops x 1 in flight, receive 2 + 2: 0 -> 5 is 5 hops, 5 -> 2 is 3, 2 -> 0 is 2
    expect(path.filter((p) => p[2] !== 99)).toEqual([
      [5, 1, 0, 15 + 5 + 4],
      [2, 2, 5, 15 + 3 + 4],
      [0, 3, 2, 15 + 2 + 4],
    ]);
    expect(path.filter((p) => p[2] === 99).map((p) => p[0]).sort()).toEqual([2, 5]);
  });

  it('a message of more words than a slot holds is an error', () => {
    expect(() =>
      runProgram<Tile64Core>({
        preset: 'tile64',
        cores: [0],
        *program(core) {
          core.udnSend(1, new Array(15).fill(1));
        },
      }),
    ).toThrow(/a raw message carries 1\.\.14 words, got 15/);
  });
});

describe('TILE64 user-managed pages hold real copies', () => {
  /** Both cores map shared page 30 user-managed; `steps` run in turn, a barrier after each (writes of a step are committed before the next). */
  function twoTiles(steps: ((core: Tile64Core, page: number) => void)[], chip?: Record<string, unknown>): void {
    runProgram<Tile64Core>({
      preset: 'tile64',
      chip,
      cores: [0, 9],
      *program(core) {
        const page = core.sharedBase + 30 * PAGE;
        core.mapRegion(page, PAGE, 'user-managed');
        for (const step of steps) {
          step(core, page);
          yield* core.barrier();
        }
      },
    });
  }

  it("another tile's committed write is not seen by a tile holding the line (L1 or L2) until it invalidates; then it is", () => {
    const seen: number[] = [];
    twoTiles([
      (core, a) => {
        if (core.id === 0) {
          core.store32(a, 5);
          core.flushLine(a);
          core.fence();
        }
      },
      (core, a) => {
        if (core.id === 9) seen.push(core.load32(a)); // 5, now cached on tile 9
      },
      (core, a) => {
        if (core.id === 0) {
          core.invalidateLine(a); // step 1 of Table 2 ... (tile 0's own copy is current anyway)
          core.store32(a, 7);
          core.flushLine(a);
          core.fence();
          seen.push(core.load32(a)); // the writer sees its own 7
        }
      },
      (core, a) => {
        if (core.id !== 9) return;
        seen.push(core.load32(a)); // L1 hit: stale 5
        core.load32(a + 4096); // two lines in a's L1 set: a leaves L1, stays in L2
        core.load32(a + 2 * 4096);
        const t0 = core.now;
        seen.push(core.load32(a)); // L2 hit: still stale 5
        seen.push(Math.round((core.now - t0) / core.period));
        core.invalidateLine(a);
        seen.push(core.load32(a)); // memory: 7
      },
    ]);
    expect(seen).toEqual([5, 7, 5, 5, 8, 7]);
  });

  it("a writer's store is not visible to others until it flushes the line (or the line is evicted)", () => {
    const seen: number[] = [];
    const L2_SET_STRIDE = 32768; // 64 KB / 2 ways
    twoTiles([
      (core, a) => {
        if (core.id === 0) {
          core.store32(a + 64, 9); // dirty in tile 0's L2 only
          core.store32(a + 128, 11);
        }
      },
      (core, a) => {
        if (core.id === 9) {
          seen.push(core.load32(a + 64), core.load32(a + 128)); // memory: 0 0
          core.invalidateLine(a + 64);
          core.invalidateLine(a + 128);
        }
      },
      (core, a) => {
        if (core.id === 0) {
          core.flushLine(a + 64);
          core.fence();
          // a + 128 is never flushed: two more lines in its L2 set evict it (a timed write-back)
          core.load32(a + 128 + L2_SET_STRIDE);
          core.load32(core.privateBase + 128); // a private page (homed here): the same L2 set
        }
      },
      (core, a) => {
        if (core.id === 9) seen.push(core.load32(a + 64), core.load32(a + 128));
      },
    ]);
    expect(seen).toEqual([0, 0, 9, 11]);
  });

  it('a write-back carries only the bytes the tile stored: two tiles writing different words of one line both land', () => {
    const seen: number[] = [];
    twoTiles([
      (core, a) => {
        core.store32(a + (core.id === 0 ? 0 : 4), 100 + core.id); // both copies dirty, different words
        core.flushLine(a);
        core.fence();
      },
      (core, a) => {
        seen[core.id === 0 ? 0 : 2] = core.load32(a + 4); // own copy: the other's word is stale (0)
        core.invalidateLine(a);
        seen[core.id === 0 ? 1 : 3] = core.load32(a + 4);
      },
    ]);
    expect(seen).toEqual([0, 109, 109, 109]);
  });

  it('fence waits for the flush: a flag stored after flush + fence follows the data', () => {
    const cycles: number[] = [];
    runProgram<Tile64Core>({
      preset: 'tile64',
      cores: [0],
      *program(core) {
        const a = core.sharedBase + 30 * PAGE;
        core.mapRegion(a, PAGE, 'user-managed');
        core.store32(a, 1);
        core.fence();
        let t0 = core.now;
        core.flushLine(a);
        cycles.push(Math.round((core.now - t0) / core.period)); // the flush instruction and the issue
        t0 = core.now;
        core.fence();
        cycles.push(Math.round((core.now - t0) / core.period)); // the write-back's trip to memory
        t0 = core.now;
        core.flushLine(a); // clean now: nothing to write
        core.fence();
        cycles.push(Math.round((core.now - t0) / core.period));
      },
    });
    expect(cycles[0]).toBe(2);
    expect(cycles[1]).toBeGreaterThan(60);
    expect(cycles[2]).toBe(1);
  });

  it('homed lines stay coherent without invalidation (contrast); remapping keeps data: entering loads it, leaving writes dirty bytes back', () => {
    const seen: number[] = [];
    runProgram<Tile64Core>({
      preset: 'tile64',
      cores: [0, 9],
      *program(core) {
        const a = core.sharedBase + 9 * PAGE; // homed on tile 9
        if (core.id === 9) seen.push(core.load32(a)); // cached at the home: 0
        yield* core.barrier();
        if (core.id === 0) core.store32(a, 3); // a remote store into the home L2
        yield* core.barrier();
        if (core.id === 9) {
          seen.push(core.load32(a)); // 3: the home's cached line is coherent
          core.mapRegion(a, PAGE, 'user-managed'); // the cached line takes its bytes from memory
          seen.push(core.load32(a)); // 3, a hit
          core.store32(a, 4); // dirty in tile 9's L2 only
          core.mapRegion(a, PAGE, 'homed', 9); // leaving: written back
        }
        yield* core.barrier();
        if (core.id === 0) seen.push(core.load32(a)); // remote read of the home: 4
      },
    });
    expect(seen).toEqual([0, 3, 3, 4]);
  });

  it('an L1 line longer than the L2 line is rejected', () => {
    expect(() => resolveChip('tile64', { caches: { l1d: { lineBytes: 64 }, l2: { lineBytes: 32, sizeBytes: 65536 } } })).toThrow(/cache l1d: lines of 64 bytes exceed the L2's 32/);
  });
});

describe('TILE64 word stores', () => {
  it('a word store commits its 4 bytes only: a reused log entry holding older words does not overwrite what another core stored in the line', () => {
    const got: Record<string, string> = {};
    const hex = (v: number) => (v >>> 0).toString(16);
    runProgram<Tile64Core>({
      preset: 'tile64',
      cores: [0, 1],
      *program(core) {
        const a = core.sharedBase; // homed on tile 0
        const b = core.sharedBase + 256;
        // epoch 1: core 0 fills its first 8 log entries, entry k with word k of line a
        if (core.id === 0) for (let k = 0; k < 8; k++) core.store32(a + 4 * k, 0xaaaaaaaa);
        yield* core.barrier();
        // epoch 2: core 1 stores word 0 of line b; core 0 stores word 1 of it later, from its
        // first log entry (which still holds word 0 of line a)
        if (core.id === 1) core.store32(b, 0xbbbbbbbb);
        else {
          core.compute(1000);
          core.store32(b + 4, 0xcccccccc);
        }
        yield* core.barrier();
        got[`core${core.id}`] = [0, 4, 8].map((o) => hex(core.load32(b + o))).join(',');
      },
    });
    expect(got).toEqual({ core0: 'bbbbbbbb,cccccccc,0', core1: 'bbbbbbbb,cccccccc,0' });
  });
});
