import { describe, expect, it } from 'vitest';
import {
  BATON_CONTINUE,
  BATON_PRIMITIVE,
  BATON_RETURN,
  BATON_SEND,
  BC,
  CORE_DATA_WORDS,
  HDR_OTE,
  HEADER_WORDS,
  PRIM,
  STOP,
  intValue,
  type ClassSpec,
  type LiteralSpec,
  type MethodSpec,
  type ProgramSpec,
} from './format';
import { layoutImage, type ObjectRole, type Placement } from './image';
import { Interpreter, VmError } from './interpreter';
import { FlatPlacement, HostMemory, HostSpace, REF_CORE_DATA, REF_HEAP_BASE, REF_OT_BASE, REF_OT_ENTRIES, referenceRun, writeImage } from './reference';

// ---------------------------------------------------------------- a tiny assembler (long jumps to labels)

type Item = number | { label: string } | { jump: string } | { jumpIfFalse: string } | { jumpIfTrue: string };

function assemble(items: Item[]): Uint8Array {
  const labels = new Map<string, number>();
  let pc = 0;
  for (const it of items) {
    if (typeof it === 'number') pc++;
    else if ('label' in it) labels.set(it.label, pc);
    else pc += 2;
  }
  const out: number[] = [];
  for (const it of items) {
    if (typeof it === 'number') out.push(it);
    else if ('label' in it) continue;
    else {
      const target = labels.get('jump' in it ? it.jump : 'jumpIfFalse' in it ? it.jumpIfFalse : it.jumpIfTrue)!;
      const offset = target - (out.length + 2);
      if ('jump' in it) out.push(BC.longJump + (offset >> 8) + 4, offset & 255);
      else {
        if (offset < 0) throw new Error('conditional jumps go forward');
        out.push(('jumpIfFalse' in it ? BC.longJumpIfFalse : BC.longJumpIfTrue) + (offset >> 8), offset & 255);
      }
    }
  }
  return Uint8Array.from(out);
}

const method = (selector: string, numTemps: number, literals: LiteralSpec[], code: Item[], primitive = 0): MethodSpec => ({
  selector,
  numArgs: selector.includes(':') ? selector.split(':').length - 1 : /^[a-zA-Z]/.test(selector) ? 0 : 1,
  numTemps,
  primitive,
  literals,
  bytecodes: assemble(code),
  maxStack: 6,
});
const cls = (name: string, superclass: string | null, methods: MethodSpec[] = [], classMethods: MethodSpec[] = [], kind: ClassSpec['kind'] = 'pointers'): ClassSpec => ({
  name,
  superclass,
  instVars: [],
  kind,
  methods,
  classMethods,
});
const sym = (name: string): LiteralSpec => ({ kind: 'symbol', name });
const glob = (name: string): LiteralSpec => ({ kind: 'global', name });
const int = (value: number): LiteralSpec => ({ kind: 'int', value });

const special = (s: string) => BC.sendSpecial + ['+', '-', '<', '>', '<=', '>=', '=', '~=', '*', '/', '\\\\', '@', 'bitShift:', '//', 'bitAnd:', 'bitOr:', 'at:', 'at:put:', 'size', 'next', 'nextPut:', 'atEnd', '==', 'class'].indexOf(s);
const T = (i: number) => BC.pushTemp + i;
const storeT = (i: number) => BC.popStoreTemp + i;

/** Object with the primitives the tests use, each falling back to `^ -1` (or nil). */
const object = cls('Object', null, [
  method('at:', 1, [], [BC.returnNil], PRIM.at),
  method('at:put:', 2, [], [BC.returnNil], PRIM.atPut),
  method('basicNew', 0, [], [BC.returnNil], PRIM.basicNew),
  method('basicNew:', 1, [], [BC.returnNil], PRIM.basicNewSize),
]);
const smallInteger = cls('SmallInteger', 'Object', [
  method('*', 1, [], [BC.pushMinusOne, BC.returnTop], PRIM.mul),
  method('/', 1, [int(99)], [BC.pushLitConst, BC.returnTop], PRIM.div),
]);

const prog = (classes: ClassSpec[], globals: string[] = []): ProgramSpec => ({ classes: [object, smallInteger, ...classes], globals, entryClass: 'Main', entrySelector: 'run:' });
const main = (run: MethodSpec, more: MethodSpec[] = []) => cls('Main', 'Object', [], [run, ...more]);

describe('interpreter: sends, primitives and the method cache', () => {
  it('runs SmallInteger arithmetic on the fast path: no sends besides run:', () => {
    // run: n  ^ (n + 3) * 2
    const p = prog([main(method('run:', 1, [int(3)], [T(0), BC.pushLitConst, special('+'), BC.pushTwo, special('*'), BC.returnTop]))]);
    const r = referenceRun(p, 4);
    expect(r.result).toBe(14);
    expect(r.sends).toBe(1);
    expect(r.bytecodes).toBe(4 + 6); // the boot method's 4 and run:'s 6
    expect(r.counters.returns).toBe(2);
  });

  it('falls back to a real send on overflow, and runs the method\'s code when the primitive fails', () => {
    // run: n  ^ n * n   (SmallInteger>>* is primitive 9 with `^ -1` after it)
    const p = prog([main(method('run:', 1, [], [T(0), T(0), special('*'), BC.returnTop]))]);
    const small = referenceRun(p, 1000);
    expect(small.result).toBe(1_000_000);
    expect(small.sends).toBe(1);
    const big = referenceRun(p, 1 << 20);
    expect(big.result).toBe(-1); // 2^40 overflows: `*` is sent, primitive 9 fails, `^ -1` runs
    expect(big.sends).toBe(2);
    expect(big.counters.primitives).toBe(0);
    expect(big.counters.activations).toBe(2);
    // `/` has no fast path: primitive 10 succeeds on exact quotients and fails otherwise (`^ 99`)
    const div = (n: number) => referenceRun(prog([main(method('run:', 1, [int(4)], [T(0), BC.pushLitConst, special('/'), BC.returnTop]))]), n);
    const exact = div(12);
    expect(exact.result).toBe(3);
    expect(exact.counters.primitives).toBe(1);
    expect(exact.counters.activations).toBe(1);
    expect(div(13).result).toBe(99);
  });

  it('looks up through the superclass chain and the metaclass chain, and counts method cache hits and misses', () => {
    // Animal>>speak ^ 7 ; Dog < Animal ; run: n  d := Dog basicNew. acc := 0. 1 to: n do: [acc := acc + d speak]. ^ acc
    const animal = cls('Animal', 'Object', [method('speak', 0, [int(7)], [BC.pushLitConst, BC.returnTop])]);
    const dog = cls('Dog', 'Animal');
    const run = method(
      'run:',
      4,
      [glob('Dog'), sym('basicNew'), sym('speak')],
      [
        BC.pushLitVar + 0, BC.send0 + 1, storeT(3), // d := Dog basicNew (Object>>basicNew found from Dog class via Class)
        BC.pushZero, storeT(2),
        BC.pushOne, storeT(1),
        { label: 'loop' }, T(1), T(0), special('<='), { jumpIfFalse: 'end' },
        T(2), T(3), BC.send0 + 2, special('+'), storeT(2),
        T(1), BC.pushOne, special('+'), storeT(1),
        { jump: 'loop' },
        { label: 'end' }, T(2), BC.returnTop,
      ],
    );
    const r = referenceRun(prog([animal, dog, main(run)]), 50);
    expect(r.result).toBe(350);
    expect(r.sends).toBe(1 + 1 + 50); // run:, basicNew, 50 x speak
    expect(r.counters.primitives).toBe(1);
    expect(r.counters.cacheMisses).toBe(3); // run:, basicNew, the first speak
    expect(r.counters.cacheHits).toBe(49);
  });

  it('sends to super from the instance side and the class side', () => {
    const animal = cls('Animal', 'Object', [method('speak', 0, [int(7)], [BC.pushLitConst, BC.returnTop])], [method('make', 0, [int(5)], [BC.pushLitConst, BC.returnTop])]);
    // Dog>>speak ^ super speak + 1 ; Dog class>>make ^ super make * 2  (the last literal: the class's global)
    const dog = cls(
      'Dog',
      'Animal',
      [method('speak', 0, [sym('speak'), glob('Dog')], [BC.pushSelf, 0x85, 0x00, BC.pushOne, special('+'), BC.returnTop])],
      [method('make', 0, [sym('make'), glob('Dog')], [BC.pushSelf, 0x85, 0x00, BC.pushTwo, special('*'), BC.returnTop])],
    );
    // run: n ^ (Dog basicNew speak * 100) + Dog make
    const run = method(
      'run:',
      1,
      [glob('Dog'), sym('basicNew'), sym('speak'), sym('make'), int(100)],
      [BC.pushLitVar + 0, BC.send0 + 1, BC.send0 + 2, BC.pushLitConst + 4, special('*'), BC.pushLitVar + 0, BC.send0 + 3, special('+'), BC.returnTop],
    );
    expect(referenceRun(prog([animal, dog, main(run)]), 0).result).toBe(810);
  });

  it('recycles contexts into the free list: fib allocates only as many contexts as its depth', () => {
    // fib: n  n < 2 ifTrue: [^ n]. ^ (self fib: n - 1) + (self fib: n - 2)
    const fib = method('fib:', 1, [sym('fib:')], [
      T(0), BC.pushTwo, special('<'), BC.shortJumpIfFalse + 1, T(0), BC.returnTop,
      BC.pushSelf, T(0), BC.pushOne, special('-'), BC.send1 + 0,
      BC.pushSelf, T(0), BC.pushTwo, special('-'), BC.send1 + 0,
      special('+'), BC.returnTop,
    ]);
    const run = method('run:', 1, [sym('fib:')], [BC.pushSelf, T(0), BC.send1 + 0, BC.returnTop]);
    const p = prog([main(run, [fib])]);
    const r = referenceRun(p, 10);
    expect(r.result).toBe(55);
    expect(r.counters.activations).toBe(1 + 177); // run: and fib's 177 calls
    expect(r.counters.contextsAllocated).toBe(11); // run: + the deepest chain fib: 10 .. fib: 1
    expect(r.counters.contextsRecycled).toBe(178); // every return but the boot context's
    expect(r.counters.returns).toBe(179);
    // contexts homed elsewhere are never recycled: every activation allocates
    const h = harness(p, 10, { homeOf: () => -1 });
    h.interp.start();
    expect(h.interp.run(1e6)).toBe(STOP.done);
    expect(intValue(h.interp.result)).toBe(55);
    expect(h.interp.counters.contextsRecycled).toBe(0);
    expect(h.interp.counters.contextsAllocated).toBe(178);
    expect(h.interp.counters.bytecodes).toBe(r.bytecodes);
  });

  it('yields after the budget and goes on to the same result', () => {
    const p = prog([main(method('run:', 1, [int(3)], [T(0), BC.pushLitConst, special('+'), BC.returnTop]))]);
    const h = harness(p, 4);
    h.interp.start();
    expect(h.interp.run(5)).toBe(STOP.yield);
    expect(h.interp.counters.bytecodes).toBe(5);
    expect(h.interp.run(100)).toBe(STOP.done);
    expect(intValue(h.interp.result)).toBe(7);
    expect(h.interp.counters.bytecodes).toBe(8);
  });
});

describe('interpreter: errors name the method and the pc', () => {
  const fails = (code: Item[], literals: LiteralSpec[] = []) => () => referenceRun(prog([main(method('run:', 1, literals, code))]), 5);
  it('doesNotUnderstand names the selector and the receiver\'s class', () => {
    expect(fails([T(0), BC.send0 + 0, BC.returnTop], [sym('frobnicate')])).toThrow(VmError);
    expect(fails([T(0), BC.send0 + 0, BC.returnTop], [sym('frobnicate')])).toThrow('doesNotUnderstand: #frobnicate sent to an instance of SmallInteger (in Main class>>run: at pc 1)');
  });
  it('a non-Boolean in a conditional jump', () => {
    expect(fails([T(0), BC.shortJumpIfFalse, BC.returnNil, BC.returnNil])).toThrow('non-Boolean SmallInteger 5 in a conditional jump (bytecode 0x98) (in Main class>>run: at pc 1)');
  });
  it('a bad bytecode', () => {
    expect(fails([BC.pushNil, 0x86])).toThrow('bad bytecode 0x86 (in Main class>>run: at pc 1)');
  });
  it('a full heap', () => {
    const p = prog([cls('Box', 'Object', [], [], 'indexable'), main(method('run:', 1, [glob('Box'), sym('basicNew:'), int(1_000_000)], [BC.pushLitVar, BC.pushLitConst + 2, BC.send1 + 1, BC.returnTop]))]);
    expect(() => referenceRun(p, 1, { heapBytes: 1 << 20 })).toThrow(/heap full: core 0's 1048576 bytes are used .*\(in Main class>>run: at pc 2\)/);
  });
});

describe('interpreter: the store barrier', () => {
  it('moves a read-mostly object to the read-write heap before a store, and updates its OTE and back pointer', () => {
    // run: n  Counter := n. #(1 2 3) at: 2 put: n. ^ (#(1 2 3) at: 2) + Counter   (one literal Array)
    const arr: LiteralSpec = { kind: 'array', elements: [int(1), int(2), int(3)] };
    const run = method('run:', 1, [glob('Counter'), arr], [
      T(0), BC.extendedPopStore, 0xc0 | 0,
      BC.pushLitConst + 1, BC.pushTwo, T(0), special('at:put:'), BC.pop,
      BC.pushLitConst + 1, BC.pushTwo, special('at:'), BC.pushLitVar + 0, special('+'), BC.returnTop,
    ]);
    const p = prog([main(run)], ['Counter']);
    const snapshotEnd = { value: 0 };
    const h = harness(p, 21, { readMostly: (body) => body < snapshotEnd.value });
    snapshotEnd.value = h.placement.next;
    const arrayOop = h.image.objects.find((o) => o.what === 'other' && o.words.length === HEADER_WORDS + 3 && o.words[HEADER_WORDS] === 3)!.ote;
    const before = h.mem.load32(arrayOop);
    h.interp.start();
    expect(h.interp.run(1e6)).toBe(STOP.done);
    expect(intValue(h.interp.result)).toBe(42);
    expect(h.interp.counters.storeBarrierMoves).toBe(2); // the Counter Association and the Array, once each
    const after = h.mem.load32(arrayOop);
    expect(after).not.toBe(before);
    expect(after).toBeGreaterThanOrEqual(snapshotEnd.value);
    expect(h.mem.load32(after + HDR_OTE)).toBe(arrayOop);
    expect([1, 2, 3].map((i) => intValue(h.mem.load32(after + 4 * (HEADER_WORDS + i - 1))))).toEqual([1, 21, 3]);
    expect(intValue(h.mem.load32(before + 4 * (HEADER_WORDS + 1)))).toBe(2); // the old copy is left as it was
    // without a read-mostly heap nothing moves, same answer
    const flat = referenceRun(p, 21);
    expect(flat.result).toBe(42);
    expect(flat.counters.storeBarrierMoves).toBe(0);
  });

  it('keeps the receiver register on the moved copy: a read-mostly receiver stores into itself and reads back', () => {
    // Association>>setValue: v  value := v. ^ value     run: n  ^ (the Counter Association) setValue: n
    const assoc: ClassSpec = { ...cls('Association', 'Object', [method('setValue:', 1, [], [T(0), BC.popStoreRecvVar + 1, BC.pushRecvVar + 1, BC.returnTop])]), instVars: ['key', 'value'] };
    const p = prog([assoc, main(method('run:', 1, [glob('Counter'), sym('setValue:')], [BC.pushLitConst + 0, T(0), BC.send1 + 1, BC.returnTop]))], ['Counter']);
    const end = { value: 0 };
    const h = harness(p, 33, { readMostly: (body) => body < end.value });
    end.value = h.placement.next;
    h.interp.start();
    expect(h.interp.run(1e6)).toBe(STOP.done);
    expect(intValue(h.interp.result)).toBe(33);
    expect(h.interp.counters.storeBarrierMoves).toBe(1);
  });
});

// ---------------------------------------------------------------- harnesses

/** One core over a HostMemory with the reference's map; the space's rules replaced as asked. */
function harness(p: ProgramSpec, size: number, rules: { homeOf?: (b: number) => number; readMostly?: (b: number) => boolean; sourceText?: string } = {}) {
  const placement = new FlatPlacement(REF_HEAP_BASE, REF_OT_BASE, REF_OT_ENTRIES);
  const image = layoutImage(p, size, placement);
  const mem = new HostMemory(REF_HEAP_BASE + image.byteSize + (1 << 20));
  writeImage(mem, image);
  const space = new HostSpace({ heapBase: REF_HEAP_BASE, heapBytes: 1 << 24, otBase: REF_OT_BASE, otEntries: REF_OT_ENTRIES, coreData: REF_CORE_DATA, ...rules });
  space.reserve(placement.next, REF_OT_BASE + 4 * image.objects.length);
  const interp = new Interpreter(mem, space, image, rules.sourceText === undefined ? undefined : { sourceText: rules.sourceText });
  return { placement, image, mem, space, interp };
}

/** Two cores sharing one HostMemory: heaps at HEAP[k], the snapshot dealt by `deal`, the baton to the heap's core. */
const HEAP = [0x100000, 0x500000];
const HEAP_BYTES = 0x400000;
const homeOf = (body: number) => (body >= HEAP[0]! && body < HEAP[0]! + HEAP_BYTES ? 0 : body >= HEAP[1]! && body < HEAP[1]! + HEAP_BYTES ? 1 : -1);

class DealPlacement implements Placement {
  readonly next = [...HEAP];
  constructor(private readonly deal: (index: number) => number) {}
  place(index: number, words: number, _what: ObjectRole): number {
    const k = this.deal(index);
    const body = this.next[k]!;
    this.next[k] = body + 4 * words;
    return body;
  }
  ote(index: number): number {
    return 0x10000 + 4 * index;
  }
}

function twoCores(p: ProgramSpec, size: number, sourceText: string, deal: (index: number) => number) {
  const placement = new DealPlacement(deal);
  const image = layoutImage(p, size, placement);
  const mem = new HostMemory(0x900000);
  writeImage(mem, image);
  const interps = [0, 1].map((core) => {
    const space = new HostSpace({
      core,
      mainCore: 0,
      heapBase: HEAP[core]!,
      heapBytes: HEAP_BYTES,
      otBase: 0x50000 + core * 0x40000,
      otEntries: 0x10000,
      coreData: 0x1000 + core * 4 * (CORE_DATA_WORDS + 16),
      homeOf,
      batonTarget: (body) => homeOf(body),
    });
    space.reserve(placement.next[core]!, 0);
    return new Interpreter(mem, space, image, { sourceText });
  });
  return { image, mem, interps };
}

describe('interpreter: passing the baton', () => {
  // Main class>>run: n  ^ (self fib: n) + (Cell basicNew fill: n) + self len
  // Cell>>fill: n  x := n. ^ self get        Cell>>get ^ x        Main class>>len <primitive: 121> ^ -1
  const fib = method('fib:', 1, [sym('fib:')], [
    T(0), BC.pushTwo, special('<'), BC.shortJumpIfFalse + 1, T(0), BC.returnTop,
    BC.pushSelf, T(0), BC.pushOne, special('-'), BC.send1 + 0,
    BC.pushSelf, T(0), BC.pushTwo, special('-'), BC.send1 + 0,
    special('+'), BC.returnTop,
  ]);
  const len = method('len', 0, [], [BC.pushMinusOne, BC.returnTop], PRIM.sourceSize);
  const cell: ClassSpec = {
    ...cls('Cell', 'Object', [method('fill:', 1, [sym('get')], [T(0), BC.popStoreRecvVar + 0, BC.pushSelf, BC.send0 + 0, BC.returnTop]), method('get', 0, [], [BC.pushRecvVar + 0, BC.returnTop])]),
    instVars: ['x'],
  };
  const run = method('run:', 1, [sym('fib:'), glob('Cell'), sym('basicNew'), sym('fill:'), sym('len')], [
    BC.pushSelf, T(0), BC.send1 + 0,
    BC.pushLitVar + 1, BC.send0 + 2, T(0), BC.send1 + 3, special('+'),
    BC.pushSelf, BC.send0 + 4, special('+'),
    BC.returnTop,
  ]);
  const p = prog([cell, main(run, [fib, len])]);
  const text = 'three + four';

  it('migrates on sends and returns, sends foreign primitives to the main core, and ends with the one-core answer and bytecode count', () => {
    const ref = referenceRun(p, 12, { sourceText: text });
    expect(ref.result).toBe(144 + 12 + text.length);
    // deal the snapshot so that Main (and so its class side) lives on core 1
    const probe = new DealPlacement(() => 0);
    const img = layoutImage(p, 12, probe);
    const mainIx = (img.classes.Main! - 0x10000) / 4;
    const metaIx = img.objects.findIndex((o) => o.ote === img.objects[mainIx]!.words[0]);
    const { interps } = twoCores(p, 12, text, (i) => (i === mainIx || i === metaIx ? 1 : i % 2 === 0 ? 0 : 1));
    const kinds = new Map<number, number>();
    let holder = 0;
    let migrations = 0;
    interps[0]!.start();
    for (let guard = 0; guard < 1e6; guard++) {
      const s = interps[holder]!.run(1000);
      if (s === STOP.done) break;
      if (s === STOP.migrate) {
        const from = interps[holder]!;
        expect(from.batonTarget).not.toBe(holder);
        kinds.set(from.baton[0]!, (kinds.get(from.baton[0]!) ?? 0) + 1);
        holder = from.batonTarget;
        interps[holder]!.resume(from.baton);
        migrations++;
      }
    }
    const done = interps[holder]!;
    expect(intValue(done.result)).toBe(ref.result);
    const sum = (k: 'bytecodes' | 'sends' | 'activations' | 'primitives') => interps[0]!.counters[k] + interps[1]!.counters[k];
    expect(sum('bytecodes')).toBe(ref.bytecodes);
    expect(sum('sends')).toBe(ref.sends);
    expect(sum('activations') + sum('primitives')).toBe(sum('sends'));
    expect(migrations).toBeGreaterThan(2);
    // run: goes to core 1 (a send), Cell is made there; the returns come back to the boot context's core 0
    expect(kinds.get(BATON_SEND)).toBeGreaterThanOrEqual(1);
    expect(kinds.get(BATON_RETURN)).toBeGreaterThanOrEqual(1);
    // `self len` on core 1: the primitive runs on core 0 and the baton comes back
    expect(kinds.get(BATON_PRIMITIVE)).toBe(1);
    expect(kinds.get(BATON_CONTINUE)).toBe(1);
    expect(interps[0]!.counters.primitives).toBeGreaterThanOrEqual(1);
  });
});
