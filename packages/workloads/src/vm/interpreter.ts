/**
 * The bytecode interpreter (issue 15): Squeak's classic interpreter over the object format of
 * format.ts, run against a VmMemory (every access a load or store there) and a VmSpace (where
 * objects live), with paper 000's baton passing between cores.
 *
 * Contract
 * - Registers, as a C interpreter keeps them: the active context (oop and body), its frame
 *   base, the method (oop, body, header, literal and bytecode bases), pc and sp, the receiver
 *   (oop and body). Nothing else of memory is kept on the host side: bytecodes, classes, the
 *   method cache (at space.coreData), dictionaries, contexts, stacks, literals and objects are
 *   read and written through `mem`, each access tagged with its ROUTINE (mem.enter).
 *   pc and sp live in the context (CTX_PC, CTX_SP) only while it is not active.
 * - Native work: mem.compute(2) per dispatched bytecode (the indirect jump; paper 000 Table 1:
 *   a 2-cycle branch mispredict). No other cost table: everything else is memory traffic.
 * - run(budget) interprets until `budget` bytecodes (STOP.yield), the boot context's return
 *   (STOP.done, `result`), or a migration (STOP.migrate, `baton` and `batonTarget`). The
 *   receiving core's interpreter (same memory, same image) takes the baton with resume() and
 *   goes on with run(). Bytecodes are counted once, on the core that dispatched them.
 * - Baton rule (paper 000 Figs. 6 and 18) on every activation and return: a SmallInteger
 *   receiver stays; otherwise space.batonTarget(body, format) names the core (or -1: stay).
 *   A send migrates before its context exists (the context is allocated on the target); a
 *   return migrates with the value for the sender context. Foreign primitives (>=
 *   PRIM.mainCoreFirst) run on space.mainCore (BATON_PRIMITIVE there, BATON_CONTINUE back).
 * - Contexts come from the running core's free lists (CD_FREE_SMALL / CD_FREE_LARGE) or the
 *   heap; a returning context goes back to the running core's list when it is homed there
 *   (Squeak's recycleContextIfPossible; no blocks or thisContext, so no one keeps it).
 * - Store barrier: a store into a non-context object in a read-mostly heap first moves it to
 *   the running core's read-write heap (copy, new body into its OTE, back pointer).
 * - Errors are VmErrors naming the method (Class>>selector) and the pc of the bytecode:
 *   doesNotUnderstand, a non-Boolean in a conditional jump, a bad bytecode, stack overflow,
 *   wrong argument count, unknown primitive, heap full (from the space).
 * - Hot path: no allocation per bytecode or per send; the dispatch is one switch.
 */
import {
  ASSOC_VALUE,
  BATON_CONTINUE,
  BATON_PRIMITIVE,
  BATON_RETURN,
  BATON_SEND,
  BATON_WORDS,
  CD_FREE_LARGE,
  CD_FREE_SMALL,
  CD_METHOD_CACHE,
  CLS_METHODS,
  CLS_NAME,
  CLS_SPEC,
  CLS_SUPERCLASS,
  CTX_FIXED,
  CTX_METHOD,
  CTX_PC,
  CTX_RECEIVER,
  CTX_SENDER,
  CTX_SP,
  FMT_COUNT_MASK,
  HDR_CLASS,
  HDR_FORMAT,
  HDR_OTE,
  HEADER_WORDS,
  KIND_BYTES,
  KIND_CONTEXT,
  KIND_METHOD,
  KIND_POINTERS,
  LARGE_FRAME,
  METHOD_CACHE_ENTRIES,
  MH_LARGE_FRAME,
  PRIM,
  ROUTINE,
  SMALL_FRAME,
  SPECIAL_SELECTORS,
  SPEC_INDEXABLE,
  STOP,
  fmtCount,
  fmtKind,
  formatWord,
  intValue,
  mhArgs,
  mhLiterals,
  mhPrimitive,
  mhTemps,
  smallInt,
  type VmMemory,
  type VmSpace,
} from './format';
import type { ImageInfo } from './image';

export type { ImageInfo } from './image';

/** A program error inside the VM (the message names the method and pc). */
export class VmError extends Error {
  override name = 'VmError';
}

/** Byte offset of slot 0 in an object body. */
const SLOT0 = HEADER_WORDS * 4;
/** Byte offset of the frame (args, temps, stack) in a context body. */
const CTX_FRAME = SLOT0 + 4 * CTX_FIXED;
/** run() goes on (internal). */
const GO = -1;
/** Special selector index -> the primitive of its SmallInteger fast path (0: none; `==` is handled apart). */
const FAST_PRIM = new Int8Array(32);
[PRIM.add, PRIM.sub, PRIM.lt, PRIM.gt, PRIM.le, PRIM.ge, PRIM.eq, PRIM.ne, PRIM.mul, 0, PRIM.mod, 0, PRIM.bitShift, PRIM.quo, PRIM.bitAnd, PRIM.bitOr].forEach(
  (p, i) => (FAST_PRIM[i] = p),
);
const SPECIAL_IDENTICAL = 22;
/** Arguments of each special selector (Squeak keeps them beside the selectors in specialSelectors). */
const SPECIAL_ARGS = Int8Array.from(SPECIAL_SELECTORS.map(([, n]) => n));

/** Store-barrier moves kept for the heap map (Interpreter.moves). */
export const MAX_MOVES_RECORDED = 64;
/** Numbers per recorded move (Interpreter.moves). */
export const MOVE_FIELDS = 6;

export interface InterpreterCounters {
  bytecodes: number;
  /** message sends that looked up a method (activations + successful primitive sends); not the inlined fast paths */
  sends: number;
  activations: number;
  /** primitives that succeeded */
  primitives: number;
  returns: number;
  /** contexts allocated from the heap (the others come from a free list) */
  contextsAllocated: number;
  /** contexts put back on a free list at their return */
  contextsRecycled: number;
  storeBarrierMoves: number;
  cacheHits: number;
  cacheMisses: number;
}

export class Interpreter {
  readonly counters: InterpreterCounters = {
    bytecodes: 0,
    sends: 0,
    activations: 0,
    primitives: 0,
    returns: 0,
    contextsAllocated: 0,
    contextsRecycled: 0,
    storeBarrierMoves: 0,
    cacheHits: 0,
    cacheMisses: 0,
  };
  /** BATON_WORDS words for the target core, valid after STOP.migrate. */
  readonly baton = new Uint32Array(BATON_WORDS);
  /** The core to hand `baton` to, valid after STOP.migrate. */
  batonTarget = -1;
  /** The oop the boot context returned, valid after STOP.done. */
  result = 0;
  /** The first MAX_MOVES_RECORDED store-barrier moves, MOVE_FIELDS numbers each: oop, old body, new body, words, class oop, moveClock() at the move (for the heap map; rare, not on the hot path). */
  readonly moves: number[] = [];
  /** The time stamp recorded with each move (the workload sets the simulated clock, ns since the run's start; 0 when unset). */
  moveClock: () => number = () => 0;

  // ---- registers (Squeak's activeContext, method, instructionPointer, stackPointer, receiver)
  private active = false;
  private ctx = 0;
  private ctxBody = 0;
  private frame = 0;
  private frameSlots = 0;
  private method = 0;
  private mheader = 0;
  private litBase = 0;
  private bcBase = 0;
  private pc = 0;
  private sp = 0;
  private instrPc = 0;
  private rcvr = 0;
  private rcvrBody = 0;

  private readonly incoming = new Uint32Array(BATON_WORDS);
  private pending = false;
  private readonly nil: number;
  private readonly tru: number;
  private readonly fals: number;
  private readonly smallIntegerClass: number;
  private readonly contextClass: number;
  private readonly specials: number;
  private readonly cacheBase: number;
  private readonly sourceText: string | null;

  constructor(
    private readonly mem: VmMemory,
    private readonly space: VmSpace,
    private readonly image: ImageInfo,
    foreign?: { sourceText: string },
  ) {
    this.nil = image.nil;
    this.tru = image.true;
    this.fals = image.false;
    const si = image.classes.SmallInteger;
    const mc = image.classes.MethodContext;
    if (si === undefined || mc === undefined) throw new Error('interpreter: the image lacks the SmallInteger or MethodContext class');
    this.smallIntegerClass = si;
    this.contextClass = mc;
    this.specials = image.specialSelectors;
    this.cacheBase = space.coreData + CD_METHOD_CACHE;
    this.sourceText = foreign?.sourceText ?? null;
  }

  /** Main core: the boot context becomes active. */
  start(): void {
    this.mem.enter(ROUTINE.return);
    this.loadContext(this.image.bootContext);
  }

  /** Takes a baton another core's interpreter handed over (STOP.migrate there); run() goes on with it. */
  resume(baton: Uint32Array): void {
    for (let i = 0; i < BATON_WORDS; i++) this.incoming[i] = baton[i] ?? 0;
    this.pending = true;
  }

  /** Interprets at most `budget` bytecodes: STOP.yield, STOP.done or STOP.migrate. */
  run(budget: number): number {
    if (this.pending) {
      this.pending = false;
      const s = this.takeBaton();
      if (s !== GO) return s;
    }
    if (!this.active) throw new Error('interpreter: run() without an active context (start() or resume() first)');
    const mem = this.mem;
    const c = this.counters;
    for (let n = budget; n > 0; n--) {
      // called on every bytecode: Squeak's fetchNextBytecode and the dispatch on it
      mem.enter(ROUTINE.fetchBytecode);
      const pc = this.pc;
      this.instrPc = pc;
      const b = mem.load8(this.bcBase + pc);
      this.pc = pc + 1;
      c.bytecodes++;
      mem.compute(2); // the dispatch's indirect jump: a 2-cycle branch mispredict (paper 000 Table 1)
      let s = GO;
      switch (b >>> 3) {
        case 0x00 >>> 3:
        case 0x08 >>> 3: // pushReceiverVariableBytecode
          this.push(this.recvVar(b & 15));
          break;
        case 0x10 >>> 3:
        case 0x18 >>> 3: // pushTemporaryVariableBytecode
          this.push(this.temp(b & 15));
          break;
        case 0x20 >>> 3:
        case 0x28 >>> 3:
        case 0x30 >>> 3:
        case 0x38 >>> 3: // pushLiteralConstantBytecode
          this.push(this.literal(b & 31));
          break;
        case 0x40 >>> 3:
        case 0x48 >>> 3:
        case 0x50 >>> 3:
        case 0x58 >>> 3: // pushLiteralVariableBytecode
          this.push(this.litVar(b & 31));
          break;
        case 0x60 >>> 3: // storeAndPopReceiverVariableBytecode
          this.storeRecvVar(b & 7, this.pop());
          break;
        case 0x68 >>> 3: // storeAndPopTemporaryVariableBytecode
          this.storeTemp(b & 7, this.pop());
          break;
        case 0x70 >>> 3: // pushReceiverBytecode, pushConstant...
          switch (b) {
            case 0x70:
              this.push(this.rcvr);
              break;
            case 0x71:
              this.push(this.tru);
              break;
            case 0x72:
              this.push(this.fals);
              break;
            case 0x73:
              this.push(this.nil);
              break;
            default: // 0x74..0x77: -1, 0, 1, 2
              this.push(smallInt((b & 7) - 5));
          }
          break;
        case 0x78 >>> 3: // returnReceiver, returnTrue/False/Nil, returnTopFromMethod
          switch (b) {
            case 0x78:
              s = this.doReturn(this.rcvr);
              break;
            case 0x79:
              s = this.doReturn(this.tru);
              break;
            case 0x7a:
              s = this.doReturn(this.fals);
              break;
            case 0x7b:
              s = this.doReturn(this.nil);
              break;
            case 0x7c:
              s = this.doReturn(this.pop());
              break;
            default:
              throw this.badBytecode(b);
          }
          break;
        case 0x80 >>> 3:
          switch (b) {
            case 0x80: {
              // extendedPushBytecode
              const d = this.nextByte();
              const i = d & 63;
              switch (d >>> 6) {
                case 0:
                  this.push(this.recvVar(i));
                  break;
                case 1:
                  this.push(this.temp(i));
                  break;
                case 2:
                  this.push(this.literal(i));
                  break;
                default:
                  this.push(this.litVar(i));
              }
              break;
            }
            case 0x81: // extendedStoreBytecode
            case 0x82: {
              // extendedStoreAndPopBytecode
              const d = this.nextByte();
              const v = b === 0x82 ? this.pop() : this.top();
              const i = d & 63;
              switch (d >>> 6) {
                case 0:
                  this.storeRecvVar(i, v);
                  break;
                case 1:
                  this.storeTemp(i, v);
                  break;
                case 3:
                  this.storeLitVar(i, v);
                  break;
                default:
                  throw this.badBytecode(b, d);
              }
              break;
            }
            case 0x83: {
              // singleExtendedSendBytecode
              const d = this.nextByte();
              s = this.send(this.literal(d & 31), d >>> 5, false);
              break;
            }
            case 0x84: {
              // doubleExtendedSend (args, literal index)
              const argc = this.nextByte();
              const lit = this.nextByte();
              s = this.send(this.literal(lit), argc, false);
              break;
            }
            case 0x85: {
              // superSend: singleExtendedSuperBytecode
              const d = this.nextByte();
              s = this.send(this.literal(d & 31), d >>> 5, true);
              break;
            }
            case 0x87: // popStackBytecode
              this.pop();
              break;
            default:
              throw this.badBytecode(b);
          }
          break;
        case 0x88 >>> 3:
          if (b !== 0x88) throw this.badBytecode(b);
          this.push(this.top()); // duplicateTopBytecode
          break;
        case 0x90 >>> 3: // shortUnconditionalJump
          this.pc += (b & 7) + 1;
          break;
        case 0x98 >>> 3: // shortConditionalJump (jump if false)
          if (this.testBoolean(this.pop(), b) === this.fals) this.pc += (b & 7) + 1;
          break;
        case 0xa0 >>> 3: {
          // longUnconditionalJump
          const d = this.nextByte();
          this.pc += ((b & 7) - 4) * 256 + d;
          break;
        }
        case 0xa8 >>> 3: {
          // longJumpIfTrue (0xa8-0xab), longJumpIfFalse (0xac-0xaf)
          const d = this.nextByte();
          const v = this.testBoolean(this.pop(), b);
          if (v === (b < 0xac ? this.tru : this.fals)) this.pc += (b & 3) * 256 + d;
          break;
        }
        case 0xb0 >>> 3:
        case 0xb8 >>> 3:
        case 0xc0 >>> 3:
        case 0xc8 >>> 3:
          s = this.sendSpecial(b - 0xb0);
          break;
        case 0xd0 >>> 3:
        case 0xd8 >>> 3: // sendLiteralSelectorBytecode, 0 arguments
          s = this.send(this.literal(b & 15), 0, false);
          break;
        case 0xe0 >>> 3:
        case 0xe8 >>> 3: // ... 1 argument
          s = this.send(this.literal(b & 15), 1, false);
          break;
        default: // 0xf0-0xff: 2 arguments
          s = this.send(this.literal(b & 15), 2, false);
      }
      if (s !== GO) return s;
    }
    return STOP.yield;
  }

  // ---------------------------------------------------------------- stack and variables

  private nextByte(): number {
    this.mem.enter(ROUTINE.fetchBytecode);
    const v = this.mem.load8(this.bcBase + this.pc);
    this.pc++;
    return v;
  }

  /** Squeak's internalPush: */
  private push(v: number): void {
    if (this.sp >= this.frameSlots) throw this.error(`stack overflow (${this.frameSlots} frame slots)`);
    this.mem.enter(ROUTINE.stack);
    this.mem.store32(this.frame + 4 * this.sp, v);
    this.sp++;
  }

  private pop(): number {
    if (this.sp <= 0) throw this.error('stack underflow');
    this.mem.enter(ROUTINE.stack);
    this.sp--;
    return this.mem.load32(this.frame + 4 * this.sp);
  }

  private top(): number {
    if (this.sp <= 0) throw this.error('stack underflow');
    this.mem.enter(ROUTINE.stack);
    return this.mem.load32(this.frame + 4 * (this.sp - 1));
  }

  private temp(i: number): number {
    this.mem.enter(ROUTINE.stack);
    return this.mem.load32(this.frame + 4 * i);
  }

  private storeTemp(i: number, v: number): void {
    this.mem.enter(ROUTINE.stack);
    this.mem.store32(this.frame + 4 * i, v);
  }

  private recvVar(i: number): number {
    if (this.rcvrBody === 0) throw this.error(`receiver variable ${i} of a SmallInteger`);
    this.mem.enter(ROUTINE.objectAccess);
    return this.mem.load32(this.rcvrBody + SLOT0 + 4 * i);
  }

  private storeRecvVar(i: number, v: number): void {
    if (this.rcvrBody === 0) throw this.error(`receiver variable ${i} of a SmallInteger`);
    this.mem.enter(ROUTINE.objectAccess);
    let body = this.rcvrBody;
    if (this.space.readMostly(body)) body = this.moveObject(this.rcvr, body);
    this.mem.enter(ROUTINE.objectAccess);
    this.mem.store32(body + SLOT0 + 4 * i, v);
  }

  private literal(i: number): number {
    this.mem.enter(ROUTINE.objectAccess);
    return this.mem.load32(this.litBase + 4 * i);
  }

  /** The value of the Association literal i. */
  private litVar(i: number): number {
    const m = this.mem;
    m.enter(ROUTINE.objectAccess);
    const assoc = m.load32(this.litBase + 4 * i);
    return m.load32(m.load32(assoc) + SLOT0 + 4 * ASSOC_VALUE);
  }

  private storeLitVar(i: number, v: number): void {
    const m = this.mem;
    m.enter(ROUTINE.objectAccess);
    const assoc = m.load32(this.litBase + 4 * i);
    let body = m.load32(assoc);
    if (this.space.readMostly(body)) body = this.moveObject(assoc, body);
    m.enter(ROUTINE.objectAccess);
    m.store32(body + SLOT0 + 4 * ASSOC_VALUE, v);
  }

  private testBoolean(v: number, b: number): number {
    if (v !== this.tru && v !== this.fals) throw this.error(`non-Boolean ${this.describe(v)} in a conditional jump (bytecode 0x${b.toString(16)})`);
    return v;
  }

  // ---------------------------------------------------------------- sends

  /** Squeak's bytecodePrimAdd etc.: SmallInteger fast paths, else a real send of the special selector. */
  private sendSpecial(idx: number): number {
    const prim = FAST_PRIM[idx]!;
    const m = this.mem;
    if (prim !== 0 || idx === SPECIAL_IDENTICAL) {
      if (this.sp < 2) throw this.error('stack underflow');
      m.enter(ROUTINE.stack);
      const a = m.load32(this.frame + 4 * (this.sp - 1));
      const r = m.load32(this.frame + 4 * (this.sp - 2));
      let res = 0;
      if (idx === SPECIAL_IDENTICAL) res = r === a ? this.tru : this.fals;
      else if ((r & a & 1) === 1) res = this.intOp(prim, intValue(r), intValue(a));
      if (res !== 0) {
        m.store32(this.frame + 4 * (this.sp - 2), res);
        this.sp--;
        return GO;
      }
    }
    m.enter(ROUTINE.objectAccess);
    const sel = m.load32(m.load32(this.specials) + SLOT0 + 4 * idx);
    return this.send(sel, SPECIAL_ARGS[idx]!, false);
  }

  /** Squeak's normalSend / superclassSend: class, method cache, lookup, primitive or activation. */
  private send(sel: number, argc: number, isSuper: boolean): number {
    const m = this.mem;
    if (this.sp < argc + 1) throw this.error('stack underflow');
    m.enter(ROUTINE.stack);
    const rcvr = m.load32(this.frame + 4 * (this.sp - 1 - argc));
    let rb = 0;
    let cls: number;
    if (isSuper) {
      // the method's last literal is the Association of its class (Squeak's methodClass)
      m.enter(ROUTINE.objectAccess);
      const assoc = m.load32(this.litBase + 4 * (mhLiterals(this.mheader) - 1));
      const mc = m.load32(m.load32(assoc) + SLOT0 + 4 * ASSOC_VALUE);
      m.enter(ROUTINE.lookup);
      cls = m.load32(m.load32(mc) + SLOT0 + 4 * CLS_SUPERCLASS);
      if (cls === this.nil) throw this.dnu(sel, mc, true);
    } else {
      m.enter(ROUTINE.fetchClass); // Squeak's fetchClassOf:
      if ((rcvr & 1) === 1) cls = this.smallIntegerClass;
      else {
        rb = m.load32(rcvr);
        cls = m.load32(rb + HDR_CLASS);
      }
    }
    this.counters.sends++;
    // lookupInMethodCacheSel:class: (one probe per entry, model)
    m.enter(ROUTINE.lookup);
    const e = this.cacheBase + 16 * (((sel ^ cls) >>> 2) & (METHOD_CACHE_ENTRIES - 1));
    let method: number;
    let prim: number;
    if (m.load32(e) === sel && m.load32(e + 4) === cls) {
      this.counters.cacheHits++;
      method = m.load32(e + 8);
      prim = m.load32(e + 12);
    } else {
      this.counters.cacheMisses++;
      method = this.lookup(sel, cls);
      if (method === 0) throw this.dnu(sel, cls, false);
      prim = mhPrimitive(m.load32(m.load32(method) + SLOT0));
      m.store32(e, sel);
      m.store32(e + 4, cls);
      m.store32(e + 8, method);
      m.store32(e + 12, prim);
    }
    if (prim !== 0) {
      if (prim >= PRIM.mainCoreFirst && this.space.core !== this.space.mainCore) {
        // a foreign primitive: the baton goes to the main core and comes back (paper 000 lines 756-763)
        this.storeContextRegisters(this.sp);
        return this.migrate(this.space.mainCore, BATON_PRIMITIVE, this.ctx, method, argc, this.space.core);
      }
      if (isSuper && (rcvr & 1) === 0) rb = m.load32(rcvr);
      m.enter(ROUTINE.primitive);
      const res = this.primitive(prim, rcvr, rb, argc);
      if (res !== 0) {
        this.counters.primitives++;
        this.sp -= argc;
        m.enter(ROUTINE.stack);
        m.store32(this.frame + 4 * (this.sp - 1), res);
        return GO;
      }
    }
    return this.activateFromSend(method, rcvr, rb, argc);
  }

  /** lookupMethodInClass: the superclass chain through the MethodDictionaries; 0 when not found. */
  private lookup(sel: number, cls: number): number {
    const m = this.mem;
    const nil = this.nil;
    for (let c = cls; c !== nil; ) {
      const cb = m.load32(c);
      const dict = m.load32(cb + SLOT0 + 4 * CLS_METHODS);
      if (dict !== nil) {
        const db = m.load32(dict);
        const mask = (fmtCount(m.load32(db + HDR_FORMAT)) >>> 1) - 1;
        for (let i = (sel >>> 2) & mask; ; i = (i + 1) & mask) {
          const key = m.load32(db + SLOT0 + 8 * i);
          if (key === sel) return m.load32(db + SLOT0 + 8 * i + 4);
          if (key === nil) break;
        }
      }
      c = m.load32(cb + SLOT0 + 4 * CLS_SUPERCLASS);
    }
    return 0;
  }

  /** The sender stops being active; the baton rule; activation here or on the receiver's core. */
  private activateFromSend(method: number, rcvr: number, rb: number, argc: number): number {
    const m = this.mem;
    m.enter(ROUTINE.activate);
    const senderSp = this.sp - argc - 1;
    this.storeContextRegisters(senderSp);
    if ((rcvr & 1) === 0) {
      if (rb === 0) rb = m.load32(rcvr);
      const t = this.space.batonTarget(rb, m.load32(rb + HDR_FORMAT));
      if (t >= 0 && t !== this.space.core) return this.migrate(t, BATON_SEND, this.ctx, method, rcvr, argc);
    }
    this.activate(this.ctx, this.frame, senderSp, method, rcvr, rb, argc);
    return GO;
  }

  /** Squeak's activateNewMethod: a context from the free list or the heap, receiver and arguments moved in, temporaries nil. */
  private activate(sender: number, senderFrame: number, senderSp: number, method: number, rcvr: number, rb: number, argc: number): void {
    const m = this.mem;
    m.enter(ROUTINE.activate);
    const mb = m.load32(method);
    const hdr = m.load32(mb + SLOT0);
    if (mhArgs(hdr) !== argc) throw this.error(`a send with ${argc} arguments found a method taking ${mhArgs(hdr)}`);
    const large = (hdr & MH_LARGE_FRAME) !== 0;
    const slots = large ? LARGE_FRAME : SMALL_FRAME;
    const list = this.space.coreData + (large ? CD_FREE_LARGE : CD_FREE_SMALL);
    let ctx = m.load32(list);
    let body: number;
    if (ctx !== 0) {
      body = m.load32(ctx);
      m.store32(list, m.load32(body + SLOT0 + 4 * CTX_SENDER));
    } else {
      body = this.allocate(HEADER_WORDS + CTX_FIXED + slots);
      ctx = this.allocateOte();
      m.enter(ROUTINE.activate);
      m.store32(ctx, body);
      m.store32(body + HDR_CLASS, this.contextClass);
      m.store32(body + HDR_FORMAT, formatWord(KIND_CONTEXT, CTX_FIXED + slots));
      m.store32(body + HDR_OTE, ctx);
      this.counters.contextsAllocated++;
    }
    m.store32(body + SLOT0 + 4 * CTX_SENDER, sender);
    m.store32(body + SLOT0 + 4 * CTX_METHOD, method);
    m.store32(body + SLOT0 + 4 * CTX_RECEIVER, rcvr);
    const frame = body + CTX_FRAME;
    const from = senderFrame + 4 * (senderSp + 1);
    for (let i = 0; i < argc; i++) m.store32(frame + 4 * i, m.load32(from + 4 * i));
    const temps = mhTemps(hdr);
    for (let i = argc; i < temps; i++) m.store32(frame + 4 * i, this.nil);
    this.ctx = ctx;
    this.ctxBody = body;
    this.frame = frame;
    this.frameSlots = slots;
    this.setMethod(method, mb, hdr);
    this.pc = 0;
    this.sp = temps;
    this.rcvr = rcvr;
    this.rcvrBody = rb;
    this.active = true;
    this.counters.activations++;
  }

  // ---------------------------------------------------------------- returns and context switches

  /** Squeak's commonReturn (no unwinding: no blocks): the value to the sender, the baton rule on the sender's receiver. */
  private doReturn(value: number): number {
    const m = this.mem;
    this.counters.returns++;
    m.enter(ROUTINE.return);
    const sender = m.load32(this.ctxBody + SLOT0 + 4 * CTX_SENDER);
    if (sender === this.nil) {
      this.result = value;
      this.active = false;
      return STOP.done;
    }
    if (this.space.homeOf(this.ctxBody) === this.space.core) {
      // recycleContextIfPossible: onto this core's free list, linked through CTX_SENDER
      const list = this.space.coreData + ((this.mheader & MH_LARGE_FRAME) !== 0 ? CD_FREE_LARGE : CD_FREE_SMALL);
      m.store32(this.ctxBody + SLOT0 + 4 * CTX_SENDER, m.load32(list));
      m.store32(list, this.ctx);
      this.counters.contextsRecycled++;
    }
    return this.returnTo(sender, value);
  }

  private returnTo(sender: number, value: number): number {
    const m = this.mem;
    m.enter(ROUTINE.return);
    const sb = m.load32(sender);
    const sr = m.load32(sb + SLOT0 + 4 * CTX_RECEIVER);
    let rb = 0;
    if ((sr & 1) === 0) {
      rb = m.load32(sr);
      const t = this.space.batonTarget(rb, m.load32(rb + HDR_FORMAT));
      if (t >= 0 && t !== this.space.core) return this.migrate(t, BATON_RETURN, sender, value, 0, 0);
    }
    this.fetchContextRegisters(sender, sb, sr, rb);
    this.push(value);
    return GO;
  }

  /** Makes `ctx` the active context (its receiver's body loaded here). */
  private loadContext(ctx: number): void {
    const m = this.mem;
    const body = m.load32(ctx);
    const r = m.load32(body + SLOT0 + 4 * CTX_RECEIVER);
    this.fetchContextRegisters(ctx, body, r, (r & 1) === 1 ? 0 : m.load32(r));
  }

  /** Squeak's fetchContextRegisters: pc, sp, method and receiver from the context into registers. */
  private fetchContextRegisters(ctx: number, body: number, rcvr: number, rb: number): void {
    const m = this.mem;
    this.ctx = ctx;
    this.ctxBody = body;
    this.frame = body + CTX_FRAME;
    this.pc = intValue(m.load32(body + SLOT0 + 4 * CTX_PC));
    this.sp = intValue(m.load32(body + SLOT0 + 4 * CTX_SP));
    const method = m.load32(body + SLOT0 + 4 * CTX_METHOD);
    const mb = m.load32(method);
    const hdr = m.load32(mb + SLOT0);
    this.frameSlots = (hdr & MH_LARGE_FRAME) !== 0 ? LARGE_FRAME : SMALL_FRAME;
    this.setMethod(method, mb, hdr);
    this.rcvr = rcvr;
    this.rcvrBody = rb;
    this.active = true;
  }

  /** Squeak's storeContextRegisters: pc and sp into the active context. */
  private storeContextRegisters(sp: number): void {
    const m = this.mem;
    m.store32(this.ctxBody + SLOT0 + 4 * CTX_PC, smallInt(this.pc));
    m.store32(this.ctxBody + SLOT0 + 4 * CTX_SP, smallInt(sp));
  }

  private setMethod(method: number, mb: number, hdr: number): void {
    this.method = method;
    this.mheader = hdr;
    this.litBase = mb + SLOT0 + 4;
    this.bcBase = this.litBase + 4 * mhLiterals(hdr);
  }

  /** Fills the baton and hands the thread to core `target`. */
  private migrate(target: number, kind: number, a: number, b: number, c: number, d: number): number {
    const bt = this.baton;
    bt.fill(0);
    bt[0] = kind;
    bt[1] = a;
    bt[2] = b;
    bt[3] = c;
    bt[4] = d;
    this.batonTarget = target;
    this.active = false;
    return STOP.migrate;
  }

  /** Acts on a baton taken with resume(). */
  private takeBaton(): number {
    const m = this.mem;
    const bt = this.incoming;
    switch (bt[0]) {
      case BATON_SEND: {
        // [kind, sender context, method, receiver, argc]: activate here, arguments on the sender's stack
        m.enter(ROUTINE.activate);
        const sender = bt[1]!;
        const rcvr = bt[3]!;
        const sb = m.load32(sender);
        const senderSp = intValue(m.load32(sb + SLOT0 + 4 * CTX_SP));
        const rb = (rcvr & 1) === 1 ? 0 : m.load32(rcvr);
        this.activate(sender, sb + CTX_FRAME, senderSp, bt[2]!, rcvr, rb, bt[4]!);
        return GO;
      }
      case BATON_RETURN: {
        // [kind, sender context, value]
        m.enter(ROUTINE.return);
        const sender = bt[1]!;
        const sb = m.load32(sender);
        const sr = m.load32(sb + SLOT0 + 4 * CTX_RECEIVER);
        this.fetchContextRegisters(sender, sb, sr, (sr & 1) === 1 ? 0 : m.load32(sr));
        this.push(bt[2]!);
        return GO;
      }
      case BATON_PRIMITIVE: {
        // [kind, context, method, argc, asking core]: run the primitive here (the main core)
        m.enter(ROUTINE.primitive);
        this.loadContext(bt[1]!);
        const method = bt[2]!;
        const argc = bt[3]!;
        m.enter(ROUTINE.primitive);
        const prim = mhPrimitive(m.load32(m.load32(method) + SLOT0));
        const rcvr = m.load32(this.frame + 4 * (this.sp - 1 - argc));
        const rb = (rcvr & 1) === 1 ? 0 : m.load32(rcvr);
        const res = this.primitive(prim, rcvr, rb, argc);
        if (res !== 0) {
          this.counters.primitives++;
          this.sp -= argc;
          m.enter(ROUTINE.stack);
          m.store32(this.frame + 4 * (this.sp - 1), res);
          this.storeContextRegisters(this.sp);
          return this.migrate(bt[4]!, BATON_CONTINUE, this.ctx, 0, 0, 0);
        }
        return this.activateFromSend(method, rcvr, rb, argc);
      }
      case BATON_CONTINUE:
        // [kind, context]: the active context again, after a foreign primitive
        m.enter(ROUTINE.primitive);
        this.loadContext(bt[1]!);
        return GO;
      default:
        throw new Error(`interpreter: resume() with an unknown baton kind ${bt[0]}`);
    }
  }

  // ---------------------------------------------------------------- primitives

  /** SmallInteger arithmetic (primitiveAdd ... primitiveBitShift): the result oop, or 0 (fail: overflow, zero divide, inexact /). */
  private intOp(prim: number, a: number, b: number): number {
    let r: number;
    switch (prim) {
      case PRIM.add:
        r = a + b;
        break;
      case PRIM.sub:
        r = a - b;
        break;
      case PRIM.lt:
        return a < b ? this.tru : this.fals;
      case PRIM.gt:
        return a > b ? this.tru : this.fals;
      case PRIM.le:
        return a <= b ? this.tru : this.fals;
      case PRIM.ge:
        return a >= b ? this.tru : this.fals;
      case PRIM.eq:
        return a === b ? this.tru : this.fals;
      case PRIM.ne:
        return a !== b ? this.tru : this.fals;
      case PRIM.mul:
        r = a * b;
        break;
      case PRIM.div: // primitiveDivide: exact quotients only
        if (b === 0 || a % b !== 0) return 0;
        r = a / b;
        break;
      case PRIM.mod: // primitiveMod (\\): the remainder of the floored division
        if (b === 0) return 0;
        r = a % b;
        if (r !== 0 && r < 0 !== b < 0) r += b;
        break;
      case PRIM.quo: // primitive 12 is Squeak's primitiveDiv (//): floored division
        if (b === 0) return 0;
        r = Math.floor(a / b);
        break;
      case PRIM.bitAnd:
        return smallInt(a & b);
      case PRIM.bitOr:
        return smallInt(a | b);
      case PRIM.bitShift:
        if (b >= 0) {
          if (a === 0) return smallInt(0);
          if (b > 30) return 0;
          r = a * 2 ** b;
        } else r = a >> Math.min(-b, 31);
        break;
      default:
        return 0;
    }
    return r >= -0x40000000 && r <= 0x3fffffff ? smallInt(r) : 0;
  }

  /** The primitive's result oop, or 0 when it fails (the method's bytecodes run then). Arguments are on the stack. */
  private primitive(prim: number, rcvr: number, rb: number, argc: number): number {
    const m = this.mem;
    const argAt = this.frame + 4 * (this.sp - argc);
    if (prim <= PRIM.bitShift) {
      if (argc !== 1) return 0;
      const a = m.load32(argAt);
      return (rcvr & a & 1) === 1 ? this.intOp(prim, intValue(rcvr), intValue(a)) : 0;
    }
    switch (prim) {
      case PRIM.at:
      case PRIM.stringAt:
        return argc === 1 ? this.primAt(rb, m.load32(argAt), prim === PRIM.stringAt) : 0;
      case PRIM.atPut:
      case PRIM.stringAtPut:
        return argc === 2 ? this.primAtPut(rcvr, rb, m.load32(argAt), m.load32(argAt + 4), prim === PRIM.stringAtPut) : 0;
      case PRIM.size: {
        if (rb === 0 || argc !== 0) return 0;
        const fmt = m.load32(rb + HDR_FORMAT);
        if (fmtKind(fmt) === KIND_BYTES) return smallInt(fmtCount(fmt));
        if (fmtKind(fmt) !== KIND_POINTERS) return 0;
        return smallInt(fmtCount(fmt) - this.namedSlots(rb));
      }
      case PRIM.basicNew:
        return argc === 0 ? this.instantiate(rcvr, rb, -1) : 0;
      case PRIM.basicNewSize: {
        if (argc !== 1) return 0;
        const n = m.load32(argAt);
        return (n & 1) === 1 && intValue(n) >= 0 ? this.instantiate(rcvr, rb, intValue(n)) : 0;
      }
      case PRIM.identical:
        return argc === 1 ? (m.load32(argAt) === rcvr ? this.tru : this.fals) : 0;
      case PRIM.class:
        if (argc !== 0) return 0;
        return (rcvr & 1) === 1 ? this.smallIntegerClass : m.load32(rb + HDR_CLASS);
      case PRIM.sourceAt: {
        const text = this.sourceText;
        if (text === null || argc !== 1) return 0;
        const i = m.load32(argAt);
        if ((i & 1) === 0 || intValue(i) < 1 || intValue(i) > text.length) return 0;
        return smallInt(text.charCodeAt(intValue(i) - 1));
      }
      case PRIM.sourceSize:
        return this.sourceText === null || argc !== 0 ? 0 : smallInt(this.sourceText.length);
      default:
        throw this.error(`unknown primitive ${prim}`);
    }
  }

  /** Named instance variables of the object at `body` (its class's CLS_SPEC). */
  private namedSlots(body: number): number {
    const m = this.mem;
    const cls = m.load32(body + HDR_CLASS);
    return intValue(m.load32(m.load32(cls) + SLOT0 + 4 * CLS_SPEC)) & 0xffff;
  }

  /** primitiveAt / primitiveStringAt: indexed slots (1-based, after the named ones) or bytes (as SmallIntegers). */
  private primAt(rb: number, idx: number, bytesOnly: boolean): number {
    if (rb === 0 || (idx & 1) === 0) return 0;
    const m = this.mem;
    m.enter(ROUTINE.objectAccess);
    const fmt = m.load32(rb + HDR_FORMAT);
    const i = intValue(idx);
    const count = fmtCount(fmt);
    const kind = fmtKind(fmt);
    if (kind === KIND_BYTES) return i >= 1 && i <= count ? smallInt(m.load8(rb + SLOT0 + i - 1)) : 0;
    if (bytesOnly || kind !== KIND_POINTERS) return 0;
    const named = this.namedSlots(rb);
    return i >= 1 && i <= count - named ? m.load32(rb + SLOT0 + 4 * (named + i - 1)) : 0;
  }

  private primAtPut(rcvr: number, rb: number, idx: number, v: number, bytesOnly: boolean): number {
    if (rb === 0 || (idx & 1) === 0) return 0;
    const m = this.mem;
    m.enter(ROUTINE.objectAccess);
    const fmt = m.load32(rb + HDR_FORMAT);
    const i = intValue(idx);
    const count = fmtCount(fmt);
    const kind = fmtKind(fmt);
    if (kind === KIND_BYTES) {
      if (i < 1 || i > count || (v & 1) === 0 || intValue(v) < 0 || intValue(v) > 255) return 0;
      if (this.space.readMostly(rb)) rb = this.moveObject(rcvr, rb);
      m.enter(ROUTINE.objectAccess);
      m.store8(rb + SLOT0 + i - 1, intValue(v));
      return v;
    }
    if (bytesOnly || kind !== KIND_POINTERS) return 0;
    const named = this.namedSlots(rb);
    if (i < 1 || i > count - named) return 0;
    if (this.space.readMostly(rb)) rb = this.moveObject(rcvr, rb);
    m.enter(ROUTINE.objectAccess);
    m.store32(rb + SLOT0 + 4 * (named + i - 1), v);
    return v;
  }

  /** primitiveNew / primitiveNewWithArg: a new instance in the running core's heap, slots nil (bytes zero). */
  private instantiate(cls: number, cb: number, n: number): number {
    if (cb === 0) return 0;
    const m = this.mem;
    const specOop = m.load32(cb + SLOT0 + 4 * CLS_SPEC);
    if ((specOop & 1) === 0) return 0;
    const spec = intValue(specOop);
    const kind = (spec >> 16) & 7;
    let count: number;
    let slotWords: number;
    if (kind === KIND_POINTERS) {
      if (n >= 0 && (spec & SPEC_INDEXABLE) === 0) return 0;
      count = (spec & 0xffff) + Math.max(n, 0);
      slotWords = count;
    } else if (kind === KIND_BYTES) {
      count = Math.max(n, 0);
      slotWords = Math.ceil(count / 4);
    } else return 0;
    if (count > FMT_COUNT_MASK) return 0;
    m.enter(ROUTINE.allocate);
    const body = this.allocate(HEADER_WORDS + slotWords);
    const oop = this.allocateOte();
    m.enter(ROUTINE.allocate);
    m.store32(oop, body);
    m.store32(body + HDR_CLASS, cls);
    m.store32(body + HDR_FORMAT, formatWord(kind, count));
    m.store32(body + HDR_OTE, oop);
    const fill = kind === KIND_POINTERS ? this.nil : 0;
    for (let w = 0; w < slotWords; w++) m.store32(body + SLOT0 + 4 * w, fill);
    return oop;
  }

  // ---------------------------------------------------------------- memory management

  /** The store barrier (paper 000 lines 1287-1291): moves a read-mostly object to the running core's heap; its new body. */
  private moveObject(oop: number, body: number): number {
    const m = this.mem;
    m.enter(ROUTINE.storeBarrier);
    const fmt = m.load32(body + HDR_FORMAT);
    const kind = fmtKind(fmt);
    const count = fmtCount(fmt);
    let words = HEADER_WORDS;
    if (kind === KIND_BYTES) words += Math.ceil(count / 4);
    else if (kind === KIND_METHOD) words += 1 + mhLiterals(m.load32(body + SLOT0)) + Math.ceil(count / 4);
    else words += count;
    const nb = this.allocate(words);
    m.enter(ROUTINE.storeBarrier);
    let cls = 0;
    for (let w = 0; w < words; w++) {
      const v = m.load32(body + 4 * w);
      if (w === 0) cls = v;
      m.store32(nb + 4 * w, v);
    }
    m.store32(oop, nb);
    m.store32(nb + HDR_OTE, oop);
    this.counters.storeBarrierMoves++;
    if (this.moves.length < MAX_MOVES_RECORDED * MOVE_FIELDS) this.moves.push(oop, body, nb, words, cls, this.moveClock());
    if (oop === this.rcvr) this.rcvrBody = nb;
    return nb;
  }

  private allocate(words: number): number {
    try {
      return this.space.allocate(words);
    } catch (e) {
      if (e instanceof VmError) throw this.error(e.message);
      throw e;
    }
  }

  private allocateOte(): number {
    try {
      return this.space.allocateOte();
    } catch (e) {
      if (e instanceof VmError) throw this.error(e.message);
      throw e;
    }
  }

  // ---------------------------------------------------------------- errors (off the hot path; they read through mem too)

  private badBytecode(b: number, operand?: number): VmError {
    return this.error(`bad bytecode 0x${b.toString(16)}${operand === undefined ? '' : ` with operand 0x${operand.toString(16)}`}`);
  }

  private dnu(sel: number, cls: number, fromSuper: boolean): VmError {
    return this.error(`doesNotUnderstand: #${this.symbolText(sel)} sent to ${fromSuper ? 'super in ' : 'an instance of '}${this.className(cls)}`);
  }

  private error(what: string): VmError {
    return new VmError(`${what} (in ${this.methodName()} at pc ${this.instrPc})`);
  }

  private symbolText(oop: number): string {
    if ((oop & 1) === 1) return String(intValue(oop));
    const m = this.mem;
    const body = m.load32(oop);
    const fmt = m.load32(body + HDR_FORMAT);
    if (fmtKind(fmt) !== KIND_BYTES) return '?';
    let s = '';
    for (let i = 0; i < Math.min(fmtCount(fmt), 80); i++) s += String.fromCharCode(m.load8(body + SLOT0 + i));
    return s;
  }

  private className(cls: number): string {
    if (cls === this.nil || (cls & 1) === 1) return '?';
    return this.symbolText(this.mem.load32(this.mem.load32(cls) + SLOT0 + 4 * CLS_NAME));
  }

  private describe(v: number): string {
    if ((v & 1) === 1) return `SmallInteger ${intValue(v)}`;
    if (v === this.nil) return 'nil';
    return `an instance of ${this.className(this.mem.load32(this.mem.load32(v) + HDR_CLASS))}`;
  }

  /** Class>>selector of the active method, found through the receiver's class chain. */
  private methodName(): string {
    if (this.method === 0) return 'no method';
    const m = this.mem;
    const nil = this.nil;
    let c = (this.rcvr & 1) === 1 ? this.smallIntegerClass : m.load32(m.load32(this.rcvr) + HDR_CLASS);
    for (let depth = 0; c !== nil && depth < 100; depth++) {
      const cb = m.load32(c);
      const dict = m.load32(cb + SLOT0 + 4 * CLS_METHODS);
      if (dict !== nil) {
        const db = m.load32(dict);
        const n = fmtCount(m.load32(db + HDR_FORMAT));
        for (let i = 0; i < n; i += 2)
          if (m.load32(db + SLOT0 + 4 * (i + 1)) === this.method) return `${this.className(c)}>>${this.symbolText(m.load32(db + SLOT0 + 4 * i))}`;
      }
      c = m.load32(cb + SLOT0 + 4 * CLS_SUPERCLASS);
    }
    return this.ctxBody !== 0 && this.method === this.bootMethod() ? 'the boot method' : 'an unknown method';
  }

  private bootMethod(): number {
    const m = this.mem;
    return m.load32(m.load32(this.image.bootContext) + SLOT0 + 4 * CTX_METHOD);
  }
}
