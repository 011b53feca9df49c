/**
 * Page protection's contract on the SCC core (page-protection.ts, core.ts touch, scc/core.ts):
 * an access the page does not allow throws the named error on every load and store path (scalar,
 * bulk ranges, waits; cached, uncached and MPBT pages); touch counts one fault per page and
 * charges trapCycles; a handler that leaves the page inaccessible is an error; with protection
 * off nothing changes (same time, no faults in the results).
 */
import { describe, expect, it } from 'vitest';
import { PROT_NONE, PROT_READ, PROT_READ_WRITE } from './page-protection';
import { runProgram } from './testing';
import type { SccCore } from './chips/scc/core';
import type { Sim } from './vocabulary';

const TRAP = 500;

/** Runs `body` on core 0 of the SCC and returns what it logged and the results. */
function run(body: (core: SccCore, log: unknown[]) => Sim<void>) {
  const log: unknown[] = [];
  const res = runProgram<SccCore>({
    cores: [0],
    program: (core) => body(core, log),
  });
  return { log, res };
}

function caught(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    return (e as Error).message;
  }
  return 'no error';
}

describe('page protection on the SCC core', () => {
  it('every load and store path checks the page: scalar, bulk, wait; cached, uncached and MPBT', () => {
    const { log } = run(function* (core, log) {
      const base = core.sharedBase; // a shared DRAM page, cached
      core.enableProtection({ base, bytes: 4 * 4096, pageBytes: 4096, initial: PROT_NONE, trapCycles: TRAP }, function* () {});
      core.protection.set(1, PROT_READ);
      core.protection.set(2, PROT_READ_WRITE);
      log.push(caught(() => core.loadF64(base + 8)));
      log.push(caught(() => core.load8(base + 3)));
      log.push(caught(() => core.store32(base + 4096 + 4, 1))); // read-only page
      log.push(caught(() => core.loadF64(base + 4096))); // read-only allows a load
      log.push(caught(() => core.storeF64(base + 2 * 4096, 1.5))); // read-write allows a store
      // bulk ranges: the first page of the range that does not allow it is named
      log.push(caught(() => core.readRange(base + 4096 + 4000, 200))); // pages 1 (ok) and 2 (ok)
      log.push(caught(() => core.readRange(base + 2 * 4096 + 4000, 8192))); // pages 2, 3: page 3 invalid
      log.push(caught(() => core.writeRange(base + 2 * 4096 - 64, 128, 7))); // pages 1 (read-only) and 2
      log.push(caught(() => core.copy(base + 3 * 4096, base + 2 * 4096, 64))); // destination page 3
      // uncached and MPBT mappings of the same pages are checked too
      core.mapPage(base, 'uncached');
      log.push(caught(() => core.load32(base + 16)));
      core.mapPage(base, 'mpbt');
      log.push(caught(() => core.store8(base + 4096, 1)));
      // a wait on a protected word is a load
      try {
        yield* core.waitUntil(base + 3 * 4096, '==', 0);
        log.push('no error');
      } catch (e) {
        log.push((e as Error).message);
      }
      // outside the range: not checked
      log.push(caught(() => core.load32(base + 4 * 4096)));
    });
    const pageAddr = (p: number, off = 0) => `0x${(0x80000000 + p * 4096 + off).toString(16)}`;
    expect(log).toEqual([
      `core 0: load from ${pageAddr(0, 8)} on invalid page 0: take the fault first (yield* core.touch(addr, bytes, false))`,
      `core 0: load from ${pageAddr(0, 3)} on invalid page 0: take the fault first (yield* core.touch(addr, bytes, false))`,
      `core 0: store to ${pageAddr(1, 4)} on read-only page 1: take the fault first (yield* core.touch(addr, bytes, true))`,
      'no error',
      'no error',
      'no error',
      `core 0: load from ${pageAddr(3)} on invalid page 3: take the fault first (yield* core.touch(addr, bytes, false))`,
      `core 0: store to ${pageAddr(1, 4096 - 64)} on read-only page 1: take the fault first (yield* core.touch(addr, bytes, true))`,
      `core 0: store to ${pageAddr(3)} on invalid page 3: take the fault first (yield* core.touch(addr, bytes, true))`,
      `core 0: load from ${pageAddr(0, 16)} on invalid page 0: take the fault first (yield* core.touch(addr, bytes, false))`,
      `core 0: store to ${pageAddr(1)} on read-only page 1: take the fault first (yield* core.touch(addr, bytes, true))`,
      `core 0: load from ${pageAddr(3)} on invalid page 3: take the fault first (yield* core.touch(addr, bytes, false))`,
      'no error',
    ]);
  });

  it('touch counts one fault per page, charges trapCycles plus the handler, and then the access proceeds', () => {
    const { log, res } = run(function* (core, log) {
      const base = core.sharedBase;
      const handled: string[] = [];
      core.enableProtection({ base, bytes: 4 * 4096, pageBytes: 4096, initial: PROT_NONE, trapCycles: TRAP }, function* (addr, write) {
        const page = core.protection.pageOf(addr);
        handled.push(`${write ? 'w' : 'r'}${page}`);
        core.compute(100); // the runtime's own work
        core.protection.set(page, write ? PROT_READ_WRITE : PROT_READ);
      });
      const cycles = () => Math.round(core.now / core.period);
      let t = cycles();
      yield* core.touch(base + 96, 8, false); // page 0: one read fault
      log.push(cycles() - t);
      log.push(core.loadF64(base + 96)); // now allowed: zero-filled memory
      t = cycles();
      yield* core.touch(base + 8, 8, false); // allowed: free
      log.push(cycles() - t);
      yield* core.touch(base, 4096 * 2, true); // pages 0 (read-only) and 1 (invalid): two write faults
      core.storeF64(base + 4096, 3.25);
      log.push(core.loadF64(base + 4096));
      log.push(handled.join(' '));
      log.push(core.counter('readFaults'), core.counter('writeFaults'));
    });
    expect(log).toEqual([TRAP + 100, 0, 0, 3.25, 'r0 w0 w1', 1, 2]);
    expect(res.simulated.cores[0]).toMatchObject({ readFaults: 1, writeFaults: 2 });
  });

  it('a handler that leaves the page inaccessible is an error naming the page and its level', () => {
    const { log } = run(function* (core, log) {
      const base = core.sharedBase;
      core.enableProtection({ base, bytes: 2 * 4096, pageBytes: 4096, initial: PROT_READ, trapCycles: TRAP }, function* () {});
      try {
        yield* core.touch(base + 4096 + 8, 8, true);
      } catch (e) {
        log.push((e as Error).message);
      }
    });
    expect(log).toEqual([`core 0: the fault handler left page 1 read-only for a store at 0x${(0x80000000 + 4096 + 8).toString(16)}`]);
  });

  it('protection off costs nothing: the same accesses take the same time, and results show no faults', () => {
    const body = (protect: boolean) =>
      run(function* (core, log) {
        const base = core.sharedBase;
        if (protect) core.enableProtection({ base: base + (1 << 20), bytes: 4096, pageBytes: 4096, initial: PROT_NONE, trapCycles: TRAP }, function* () {});
        yield* core.touch(base, 64, false); // off (or outside the range): nothing
        for (let i = 0; i < 64; i++) core.storeF64(base + 8 * i, i);
        let s = 0;
        for (let i = 0; i < 64; i++) s += core.loadF64(base + 8 * i);
        core.readRange(base, 512);
        core.fence();
        log.push(s, core.now);
      });
    const off = run(function* (core, log) {
      const base = core.sharedBase;
      yield* core.touch(base, 64, false);
      for (let i = 0; i < 64; i++) core.storeF64(base + 8 * i, i);
      let s = 0;
      for (let i = 0; i < 64; i++) s += core.loadF64(base + 8 * i);
      core.readRange(base, 512);
      core.fence();
      log.push(s, core.now);
    });
    const on = body(true);
    expect(off.log[0]).toBe(2016);
    expect(on.log).toEqual(off.log);
    expect(off.res.digest).toBe(on.res.digest);
    expect(off.res.simulated.cores[0]).not.toHaveProperty('readFaults');
    expect(off.res.simulated.cores[0]).not.toHaveProperty('writeFaults');
  });
});
