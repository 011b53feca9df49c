/**
 * The VM's shared vocabulary (issue 15, paper 000's RoarVM design): the object format in
 * simulated memory, the bytecode set, the compiler's output, and the two interfaces the
 * interpreter runs against (VmMemory: where loads and stores go; VmSpace: where objects live).
 * Every module of vm/ imports its constants from here; nothing here touches the engine.
 *
 * Memory (32-bit words, byte addresses, little-endian bytes within a word)
 * - An oop (object reference) is either a SmallInteger, `(value << 1) | 1` (31-bit signed
 *   value), or the byte address of an object-table entry (OTE; 4-byte aligned, low bit 0).
 *   nil, true and false are ordinary objects with OTEs.
 * - An OTE is one word: the address of the object's header (its "body"). Moving an object =
 *   copy it, then store the new body address into its OTE (paper 000 lines 530-553).
 * - An object is HEADER_WORDS header words, then its slots:
 *     body + 0: class oop
 *     body + 4: format word (FMT_*): count in bits 0..23, kind in bits 24..26, flags above
 *     body + 8: the address of its OTE (the back pointer, paper 000 line 541)
 *     body + 12...: slots
 *   KIND_POINTERS: `count` oop slots (named instance variables first, then indexed ones).
 *   KIND_BYTES: `count` bytes packed 4 per word (Strings, Symbols); ceil(count / 4) words.
 *   KIND_METHOD: a CompiledMethod: slot 0 the method header word (MH_*, a raw word, not an
 *     oop), slots 1..numLiterals the literals (oops), then `count` bytecode bytes packed
 *     4 per word. Words = 1 + numLiterals + ceil(count / 4).
 *   KIND_CONTEXT: a method context, pointer slots: CTX_SENDER, CTX_PC (SmallInteger: byte
 *     index of the next bytecode, 0-based from the first bytecode), CTX_SP (SmallInteger:
 *     number of used slots after CTX_FIXED: args, temps, stack), CTX_METHOD, CTX_RECEIVER,
 *     then CTX_FIXED... args, temps, stack. `count` = CTX_FIXED + SMALL_FRAME or LARGE_FRAME.
 * - Classes are pointer objects: CLS_SUPERCLASS, CLS_METHODS (a MethodDictionary or nil),
 *   CLS_SPEC (SmallInteger: named instance variables + (instance kind << 16)), CLS_NAME (a
 *   Symbol). A class's class is its metaclass (also a class object, CLS_SPEC's kind pointers).
 * - A MethodDictionary is a pointer object of 2 x capacity slots (capacity a power of two):
 *   slot 2i a selector Symbol (or nil), slot 2i + 1 its CompiledMethod. Open addressing:
 *   probe i = ((selectorOop >>> 2) + k) & (capacity - 1), k = 0, 1, ...; an empty (nil)
 *   selector ends the probe (not found).
 * - An Association (globals, literal variables) is a pointer object: ASSOC_KEY, ASSOC_VALUE.
 *
 * Multicore flags in the format word (paper 000 section 5.5): FMT_DONT_PASS (v2's per-object
 * "don't pass" bit: a send to it never takes the baton).
 */

// ---------------------------------------------------------------- oops

export const HEADER_WORDS = 3;
export const HDR_CLASS = 0;
export const HDR_FORMAT = 4;
export const HDR_OTE = 8;

export const isSmallInt = (oop: number): boolean => (oop & 1) === 1;
/** The tagged oop of a SmallInteger value (|value| < 2^30). */
export const smallInt = (value: number): number => ((value << 1) | 1) >>> 0;
/** The value of a SmallInteger oop (sign from bit 31). */
export const intValue = (oop: number): number => (oop | 0) >> 1;
export const SMALL_INT_MIN = -(2 ** 30);
export const SMALL_INT_MAX = 2 ** 30 - 1;
export const fitsSmallInt = (v: number): boolean => Number.isInteger(v) && v >= SMALL_INT_MIN && v <= SMALL_INT_MAX;

// ---------------------------------------------------------------- format word

export const FMT_COUNT_MASK = 0xffffff;
export const FMT_KIND_SHIFT = 24;
export const KIND_POINTERS = 0;
export const KIND_BYTES = 1;
export const KIND_METHOD = 2;
export const KIND_CONTEXT = 3;
export const FMT_DONT_PASS = 1 << 28;
export const formatWord = (kind: number, count: number, flags = 0): number => ((kind << FMT_KIND_SHIFT) | (count & FMT_COUNT_MASK) | flags) >>> 0;
export const fmtKind = (fmt: number): number => (fmt >>> FMT_KIND_SHIFT) & 7;
export const fmtCount = (fmt: number): number => fmt & FMT_COUNT_MASK;

// ---------------------------------------------------------------- classes, methods, contexts

export const CLS_SUPERCLASS = 0;
export const CLS_METHODS = 1;
export const CLS_SPEC = 2;
export const CLS_NAME = 3;
export const CLASS_SLOTS = 4;

export const ASSOC_KEY = 0;
export const ASSOC_VALUE = 1;

/** Method header word (slot 0 of a CompiledMethod, raw). */
export const MH_ARGS_SHIFT = 0; // 8 bits: number of arguments
export const MH_TEMPS_SHIFT = 8; // 8 bits: arguments + temporaries
export const MH_LITERALS_SHIFT = 16; // 8 bits: number of literals
export const MH_PRIM_SHIFT = 24; // 7 bits: primitive number (0 = none)
export const MH_LARGE_FRAME = 1 << 31; // needs LARGE_FRAME stack slots
export const methodHeader = (args: number, temps: number, literals: number, primitive: number, large: boolean): number =>
  ((args << MH_ARGS_SHIFT) | (temps << MH_TEMPS_SHIFT) | (literals << MH_LITERALS_SHIFT) | (primitive << MH_PRIM_SHIFT) | (large ? MH_LARGE_FRAME : 0)) >>> 0;
export const mhArgs = (h: number): number => (h >>> MH_ARGS_SHIFT) & 0xff;
export const mhTemps = (h: number): number => (h >>> MH_TEMPS_SHIFT) & 0xff;
export const mhLiterals = (h: number): number => (h >>> MH_LITERALS_SHIFT) & 0xff;
export const mhPrimitive = (h: number): number => (h >>> MH_PRIM_SHIFT) & 0x7f;

export const CTX_SENDER = 0;
export const CTX_PC = 1;
export const CTX_SP = 2;
export const CTX_METHOD = 3;
export const CTX_RECEIVER = 4;
export const CTX_FIXED = 5;
/** Squeak's two context sizes (frame slots after the fixed part): args + temps + stack. */
export const SMALL_FRAME = 16;
export const LARGE_FRAME = 56;

// ---------------------------------------------------------------- bytecodes (Squeak's classic set, a subset)

export const BC = {
  pushRecvVar: 0x00, // 0x00-0x0f: push receiver variable n
  pushTemp: 0x10, // 0x10-0x1f: push temporary (args first) n
  pushLitConst: 0x20, // 0x20-0x3f: push literal n
  pushLitVar: 0x40, // 0x40-0x5f: push the value of the Association literal n
  popStoreRecvVar: 0x60, // 0x60-0x67: pop into receiver variable n
  popStoreTemp: 0x68, // 0x68-0x6f: pop into temporary n
  pushSelf: 0x70,
  pushTrue: 0x71,
  pushFalse: 0x72,
  pushNil: 0x73,
  pushMinusOne: 0x74,
  pushZero: 0x75,
  pushOne: 0x76,
  pushTwo: 0x77,
  returnSelf: 0x78,
  returnTrue: 0x79,
  returnFalse: 0x7a,
  returnNil: 0x7b,
  returnTop: 0x7c,
  /** next byte: type (bits 6-7: 0 receiver variable, 1 temporary, 2 literal, 3 literal variable) and index (bits 0-5) */
  extendedPush: 0x80,
  /** next byte as extendedPush (types 0, 1, 3): store top into it, do not pop */
  extendedStore: 0x81,
  /** next byte as extendedPush (types 0, 1, 3): pop into it */
  extendedPopStore: 0x82,
  /** next byte: arguments (bits 5-7), literal index of the selector (bits 0-4) */
  singleExtendedSend: 0x83,
  /** next two bytes: arguments, literal index of the selector (0-255) */
  doubleExtendedSend: 0x84,
  pop: 0x87,
  dup: 0x88,
  shortJump: 0x90, // 0x90-0x97: jump forward 1..8 bytes
  shortJumpIfFalse: 0x98, // 0x98-0x9f: pop; if false jump forward 1..8
  /** 0xa0-0xa7 and the next byte: jump by ((n - 4) * 256 + next) bytes, from after the 2-byte bytecode */
  longJump: 0xa0,
  /** 0xa8-0xab and the next byte: pop; if true jump forward (n & 3) * 256 + next bytes */
  longJumpIfTrue: 0xa8,
  /** 0xac-0xaf and the next byte: pop; if false jump forward (n & 3) * 256 + next bytes */
  longJumpIfFalse: 0xac,
  /** 0xb0-0xcf: send special selector n (SPECIAL_SELECTORS[n]); SmallInteger fast paths for the arithmetic ones */
  sendSpecial: 0xb0,
  send0: 0xd0, // 0xd0-0xdf: send literal selector n (0..15), no arguments
  send1: 0xe0, // 0xe0-0xef: ... one argument
  send2: 0xf0, // 0xf0-0xff: ... two arguments
  /**
   * next byte as singleExtendedSend: send to self, the lookup starting at the superclass of the
   * class named by the method's LAST literal (then always the Association of the method's class,
   * {kind:'global', name: className}). Instance-side methods only (the compiler refuses it on the class side).
   */
  superSend: 0x85,
} as const;

/** A popped "non-Boolean" in a conditional jump is an error naming the bytecode (no mustBeBoolean send). */
export const SPECIAL_SELECTORS: readonly (readonly [selector: string, args: number])[] = [
  ['+', 1], ['-', 1], ['<', 1], ['>', 1], ['<=', 1], ['>=', 1], ['=', 1], ['~=', 1],
  ['*', 1], ['/', 1], ['\\\\', 1], ['@', 1], ['bitShift:', 1], ['//', 1], ['bitAnd:', 1], ['bitOr:', 1],
  ['at:', 1], ['at:put:', 2], ['size', 0], ['next', 0], ['nextPut:', 1], ['atEnd', 0], ['==', 1], ['class', 0],
  ['blockCopy:', 1], ['value', 0], ['value:', 1], ['do:', 1], ['new', 0], ['new:', 1], ['x', 0], ['y', 0],
];

// ---------------------------------------------------------------- primitives

/**
 * Primitive numbers (Squeak's where it has one). A method whose header names a primitive runs
 * it on a send; if the primitive fails (wrong argument types, overflow, index out of range)
 * the method's bytecodes run instead. PRIM_MAIN_CORE_FIRST.. are "foreign" primitives that
 * must run on the main core (paper 000 lines 756-763): the baton goes there and back.
 */
export const PRIM = {
  add: 1, sub: 2, lt: 3, gt: 4, le: 5, ge: 6, eq: 7, ne: 8, mul: 9, div: 10, mod: 11, quo: 12,
  bitAnd: 14, bitOr: 15, bitShift: 17,
  at: 60, atPut: 61, size: 62, stringAt: 63, stringAtPut: 64,
  basicNew: 70, basicNewSize: 71,
  identical: 110, class: 111,
  /** the first foreign (main-core) primitive */
  mainCoreFirst: 120,
  /** foreign: the source text's character at an index (the compiler benchmark's "file") */
  sourceAt: 120,
  /** foreign: the source text's length */
  sourceSize: 121,
} as const;

// ---------------------------------------------------------------- compiler output

export type LiteralSpec =
  | { kind: 'int'; value: number }
  | { kind: 'symbol'; name: string }
  | { kind: 'string'; value: string }
  | { kind: 'char'; code: number } // a SmallInteger code point (no Character class)
  | { kind: 'global'; name: string } // the Association of a global (a class or a global variable)
  | { kind: 'array'; elements: LiteralSpec[] };

export interface MethodSpec {
  selector: string;
  numArgs: number;
  /** arguments + temporaries */
  numTemps: number;
  primitive: number;
  literals: LiteralSpec[];
  bytecodes: Uint8Array;
  /** deepest stack the bytecodes reach beyond args + temps; the frame is LARGE_FRAME when numTemps + maxStack > SMALL_FRAME */
  maxStack: number;
}

export interface ClassSpec {
  name: string;
  /** null for the root (Object) */
  superclass: string | null;
  instVars: string[];
  /** instances: named slots only ('pointers'), named + indexed pointer slots ('indexable'), or bytes ('bytes') */
  kind: 'pointers' | 'indexable' | 'bytes';
  methods: MethodSpec[];
  /** class-side methods (on the metaclass) */
  classMethods: MethodSpec[];
}

/** What the compiler produces from source: the whole program, kernel classes included. */
export interface ProgramSpec {
  classes: ClassSpec[];
  /** global variables besides the classes (initial value nil) */
  globals: string[];
  /** the run's entry: `entryClass entrySelector: size` on the class side */
  entryClass: string;
  entrySelector: string;
}

// ---------------------------------------------------------------- interfaces

/** VM routines, for the stall breakdown (paper 000 Fig. 11 names some of them). */
export const ROUTINE = {
  fetchBytecode: 0,
  fetchClass: 1,
  lookup: 2,
  activate: 3, // context allocation and argument copy
  return: 4,
  stack: 5, // pushes and pops on the active context
  objectAccess: 6, // receiver variables, at:, at:put:, literals
  primitive: 7,
  storeBarrier: 8,
  allocate: 9,
  migrate: 10, // baton send / receive (the workload)
  clock: 11, // the per-migration clock call (the workload)
} as const;
export const ROUTINE_NAMES = Object.keys(ROUTINE) as (keyof typeof ROUTINE)[];

/**
 * Where the interpreter's loads and stores go: the simulated core (the vm workload) or a host
 * array (the reference run). Called on every access: implementations must not allocate.
 */
export interface VmMemory {
  load32(addr: number): number;
  store32(addr: number, value: number): void;
  load8(addr: number): number;
  store8(addr: number, value: number): void;
  /** native work besides the loads and stores (ALU, branches), in core cycles */
  compute(cycles: number): void;
  /** the VM routine the next accesses belong to (ROUTINE.*) */
  enter(routine: number): void;
}

/** Where objects live: heaps, homing and replication (the workload) or one flat heap (the reference). */
export interface VmSpace {
  /** Body address for a new object of `words` words (header included) in the running core's read-write heap. */
  allocate(words: number): number;
  /** Address of a free OTE for a new object (from the running core's part of the object table). */
  allocateOte(): number;
  /** The core whose heap holds `body` (shift and mask), or -1 outside the per-core heaps. */
  homeOf(body: number): number;
  /**
   * Core that should run an activation of (or a return into) a receiver whose body is at
   * `body` with format word `fmt`, or -1 to stay where the interpreter is: the baton rule
   * (paper 000 Figs. 6 and 18). Never called for SmallInteger receivers (they stay).
   */
  batonTarget(body: number, fmt: number): number;
  /** True when `body` is in a read-mostly heap (a store must move the object to the read-write heap first). */
  readMostly(body: number): boolean;
  /** The core running the interpreter now. */
  readonly core: number;
  /** The core that runs foreign (main-core) primitives. */
  readonly mainCore: number;
  /**
   * Address of the running core's VM-private words (homed on it): CORE_DATA_WORDS words for the
   * method cache and the context free lists (CD_*). Zeroed at start.
   */
  readonly coreData: number;
}

/** Per-core VM data at VmSpace.coreData: free-list heads, then the method cache. */
export const CD_FREE_SMALL = 0; // oop of the first free small context (0 = none); a free context's CTX_SENDER slot links the next
export const CD_FREE_LARGE = 4;
export const CD_METHOD_CACHE = 16; // METHOD_CACHE_ENTRIES entries of 4 words: selector, class, method, primitive
export const METHOD_CACHE_ENTRIES = 256;
export const CORE_DATA_WORDS = 4 + METHOD_CACHE_ENTRIES * 4;

/** Why Interpreter.run returned. */
export const STOP = { done: 0, yield: 1, migrate: 2 } as const;

/**
 * The baton (paper 000 "passing the baton"): at most BATON_WORDS words the interpreter hands
 * to another core with STOP.migrate; word 0 is the BATON_* kind. The receiving core's
 * interpreter takes it with resume(). Nothing else passes between cores except memory.
 */
export const BATON_WORDS = 8;
export const BATON_SEND = 1; // activate a looked-up method there: context, method, receiver, args on the sender's stack
export const BATON_RETURN = 2; // push a returned value into the sender context there and go on
export const BATON_PRIMITIVE = 3; // run a foreign primitive on the main core, then BATON_CONTINUE back
export const BATON_CONTINUE = 4; // go on with the active context (after a foreign primitive)
export const BATON_HALT = 5; // the run is over: every core's program ends

/**
 * CLS_SPEC flag (added by the interpreter slice): instances have indexed pointer slots after the
 * named ones (ClassSpec kind 'indexable'; Squeak's instSpec 2/3). basicNew: fails without it on
 * pointer classes. CLS_SPEC = named + (kind << 16) + (indexable ? SPEC_INDEXABLE : 0).
 */
export const SPEC_INDEXABLE = 1 << 20;
