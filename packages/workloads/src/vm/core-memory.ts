/**
 * VmMemory over a simulated core of any family (TILE64, SCC): every access is the core's own
 * load or store; the simulated time each takes (its instruction, its cache and network time)
 * is charged to the VM routine running (ps), for the stall breakdown by routine.
 * Called on every access: no allocation. One family per run keeps the call sites monomorphic.
 */
import { ROUTINE, ROUTINE_NAMES, type VmMemory } from './format';

/** What CoreVmMemory needs of a core: its clock and its scalar accesses. */
export interface ScalarCore {
  readonly now: number;
  load32(addr: number): number;
  store32(addr: number, value: number): void;
  load8(addr: number): number;
  store8(addr: number, value: number): void;
  compute(cycles: number): void;
}

export class CoreVmMemory implements VmMemory {
  readonly routinePs = new Float64Array(ROUTINE_NAMES.length);
  private routine: number = ROUTINE.fetchBytecode;
  constructor(private readonly core: ScalarCore) {}
  load32(addr: number): number {
    const c = this.core;
    const t = c.now;
    const v = c.load32(addr);
    this.routinePs[this.routine] += c.now - t;
    return v;
  }
  store32(addr: number, value: number): void {
    const c = this.core;
    const t = c.now;
    c.store32(addr, value);
    this.routinePs[this.routine] += c.now - t;
  }
  load8(addr: number): number {
    const c = this.core;
    const t = c.now;
    const v = c.load8(addr);
    this.routinePs[this.routine] += c.now - t;
    return v;
  }
  store8(addr: number, value: number): void {
    const c = this.core;
    const t = c.now;
    c.store8(addr, value);
    this.routinePs[this.routine] += c.now - t;
  }
  compute(cycles: number): void {
    const c = this.core;
    const t = c.now;
    c.compute(cycles);
    this.routinePs[this.routine] += c.now - t;
  }
  enter(routine: number): void {
    this.routine = routine;
  }
  /** Time spent outside loads, stores and compute (a baton's flush or message), charged to a routine. */
  charge(routine: number, ps: number): void {
    this.routinePs[routine] += ps;
  }
}
