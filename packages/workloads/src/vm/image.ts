/**
 * The image builder (issue 15): lays out a compiled program (ProgramSpec) as the objects of a
 * Smalltalk snapshot in the format of format.ts, ready to be written into memory.
 *
 * Contract
 * - layoutImage(program, size, place) is a pure function of its arguments: every core calls it
 *   and gets the same objects in the same order (object #i is the i-th created); the caller
 *   writes each object's words at its body and the body address into its OTE.
 * - Addresses come from the Placement: place(index, words, what) is called once per object in
 *   index order and returns its body; ote(index) names its object-table entry. An oop is the
 *   OTE address, so every word of every object depends only on ote(), never on place().
 * - Objects: nil, true, false; per class its class object and metaclass (`X class`, whose
 *   superclass is `(X superclass) class`, `Object class`'s superclass is Class; every
 *   metaclass is an instance of Metaclass); one Symbol per distinct name; one Association per
 *   class and per ProgramSpec.globals name (value nil); per class a MethodDictionary (a power
 *   of two of capacity, load <= 1/2, probes as format.ts) or nil without methods; the
 *   CompiledMethods with their literal Strings and Arrays; the Array of the 32 special
 *   selectors; a boot CompiledMethod `^ EntryClass entrySelector: size` and its MethodContext
 *   (receiver nil, pc 0, sp 0, sender nil).
 * - Kernel classes the program does not define (UndefinedObject, True, False, SmallInteger,
 *   String, Symbol, Array, Association, MethodDictionary, CompiledMethod, MethodContext, Class,
 *   Metaclass, ...) are added with no methods. CompiledMethod and MethodContext instances have
 *   KIND_METHOD and KIND_CONTEXT; Class and Metaclass instances CLASS_SLOTS named slots.
 * - A class-side method using the super send (BC.superSend = 0x85) whose last literal is its
 *   own class's global gets, as last literal, an Association whose value is the metaclass
 *   (Squeak's methodClass), so that `super` on the class side looks up from the metaclass's
 *   superclass.
 * - Bad programs (unknown superclass or global, duplicate class or selector, a String literal
 *   with a character code above 255, a frame beyond LARGE_FRAME) throw an Error naming it.
 */
import {
  ASSOC_KEY,
  ASSOC_VALUE,
  BC,
  CLASS_SLOTS,
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
  HEADER_WORDS,
  HDR_CLASS,
  HDR_FORMAT,
  HDR_OTE,
  KIND_BYTES,
  KIND_CONTEXT,
  KIND_METHOD,
  KIND_POINTERS,
  LARGE_FRAME,
  SMALL_FRAME,
  SPECIAL_SELECTORS,
  SPEC_INDEXABLE,
  fitsSmallInt,
  formatWord,
  methodHeader,
  smallInt,
  type ClassSpec,
  type LiteralSpec,
  type MethodSpec,
  type ProgramSpec,
} from './format';

export type ObjectRole = 'class' | 'method' | 'methodDict' | 'symbol' | 'context' | 'other';

/** Where the snapshot's objects go (the workload deals them over heaps; the reference uses one flat heap). */
export interface Placement {
  /** Body address of object #index of `words` words (header included); called once per object, in index order. */
  place(index: number, words: number, what: ObjectRole): number;
  /** OTE address of object #index. */
  ote(index: number): number;
}

export interface ImageObject {
  index: number;
  ote: number;
  body: number;
  /** header included */
  words: Uint32Array;
  what: ObjectRole;
  /** its class's name ('X class' for a metaclass) */
  className: string;
}

/** What the interpreter needs to know of an image: its well-known oops. */
export interface ImageInfo {
  nil: number;
  true: number;
  false: number;
  /** every class's oop by name (kernel classes included) */
  classes: Record<string, number>;
  /** oop of an Array of the 32 special selector Symbols */
  specialSelectors: number;
  /** oop of a MethodContext ready to run `^ EntryClass entrySelector: size` */
  bootContext: number;
  /** bytes of all objects (headers included) */
  byteSize: number;
}

export interface Image extends ImageInfo {
  objects: ImageObject[];
}

/** Kernel classes added when the program does not define them (superclass used when it exists, else Object). */
const KERNEL: readonly { name: string; superclass: string; instVars: string[]; kind: ClassSpec['kind'] }[] = [
  { name: 'UndefinedObject', superclass: 'Object', instVars: [], kind: 'pointers' },
  { name: 'Boolean', superclass: 'Object', instVars: [], kind: 'pointers' },
  { name: 'True', superclass: 'Boolean', instVars: [], kind: 'pointers' },
  { name: 'False', superclass: 'Boolean', instVars: [], kind: 'pointers' },
  { name: 'SmallInteger', superclass: 'Object', instVars: [], kind: 'pointers' },
  { name: 'String', superclass: 'Object', instVars: [], kind: 'bytes' },
  { name: 'Symbol', superclass: 'String', instVars: [], kind: 'bytes' },
  { name: 'Array', superclass: 'Object', instVars: [], kind: 'indexable' },
  { name: 'Association', superclass: 'Object', instVars: ['key', 'value'], kind: 'pointers' },
  { name: 'MethodDictionary', superclass: 'Object', instVars: [], kind: 'indexable' },
  { name: 'CompiledMethod', superclass: 'Object', instVars: [], kind: 'bytes' },
  { name: 'MethodContext', superclass: 'Object', instVars: [], kind: 'indexable' },
  { name: 'Class', superclass: 'Object', instVars: [], kind: 'pointers' },
  { name: 'Metaclass', superclass: 'Object', instVars: [], kind: 'pointers' },
];

/** Bytes of each bytecode (the opcode included), for scanning a method (Squeak's classic set as format.ts). */
export function bytecodeLength(b: number): number {
  if (b >= 0x80 && b <= 0x83) return 2;
  if (b === BC.doubleExtendedSend) return 3;
  if (b === BC.superSend) return 2; // next byte as singleExtendedSend
  if (b >= 0xa0 && b <= 0xaf) return 2;
  return 1;
}

/** True when the method's bytecodes contain a super send (0x85 as an opcode, not an operand). */
export function usesSuperSend(bytecodes: Uint8Array): boolean {
  for (let pc = 0; pc < bytecodes.length; pc += bytecodeLength(bytecodes[pc]!)) if (bytecodes[pc] === BC.superSend) return true;
  return false;
}

interface Draft {
  what: ObjectRole;
  /** name of the object's class (metaclasses: 'X class'); resolved at the end */
  className: string;
  words: Uint32Array;
}

/** Lays out `program` with the boot context running `EntryClass entrySelector: size`. */
export function layoutImage(program: ProgramSpec, size: number, place: Placement): Image {
  if (!fitsSmallInt(size)) throw new Error(`image: size ${size} is not a SmallInteger`);
  const drafts: Draft[] = [];
  const oop = (index: number) => place.ote(index);
  const create = (what: ObjectRole, className: string, kind: number, count: number, slotWords: number): number => {
    const words = new Uint32Array(HEADER_WORDS + slotWords);
    words[HDR_FORMAT >> 2] = formatWord(kind, count);
    drafts.push({ what, className, words });
    return drafts.length - 1;
  };
  const setSlot = (index: number, slot: number, value: number) => {
    drafts[index]!.words[HEADER_WORDS + slot] = value;
  };

  // ---- classes: the program's, then the kernel's it lacks
  const specs = new Map<string, ClassSpec>();
  for (const c of program.classes) {
    if (specs.has(c.name)) throw new Error(`image: class ${c.name} is defined twice`);
    specs.set(c.name, c);
  }
  if (!specs.has('Object')) specs.set('Object', { name: 'Object', superclass: null, instVars: [], kind: 'pointers', methods: [], classMethods: [] });
  for (const k of KERNEL) {
    if (specs.has(k.name)) continue;
    const superclass = specs.has(k.superclass) ? k.superclass : 'Object';
    specs.set(k.name, { name: k.name, superclass, instVars: k.instVars, kind: k.kind, methods: [], classMethods: [] });
  }
  const classList = [...specs.values()];
  for (const c of classList) {
    if (c.superclass !== null && !specs.has(c.superclass)) throw new Error(`image: class ${c.name}'s superclass ${c.superclass} is not defined`);
    const seen = new Set<string>();
    for (let s: string | null = c.name; s !== null; s = specs.get(s)!.superclass) {
      if (seen.has(s)) throw new Error(`image: class ${c.name}'s superclass chain loops (through ${s})`);
      seen.add(s);
    }
  }

  // well-known objects first: nil, true, false
  const nilIx = create('other', 'UndefinedObject', KIND_POINTERS, 0, 0);
  const trueIx = create('other', 'True', KIND_POINTERS, 0, 0);
  const falseIx = create('other', 'False', KIND_POINTERS, 0, 0);
  const nil = oop(nilIx);

  const classIx = new Map<string, number>();
  const metaIx = new Map<string, number>();
  for (const c of classList) {
    classIx.set(c.name, create('class', `${c.name} class`, KIND_POINTERS, CLASS_SLOTS, CLASS_SLOTS));
    metaIx.set(c.name, create('class', 'Metaclass', KIND_POINTERS, CLASS_SLOTS, CLASS_SLOTS));
  }

  const symbols = new Map<string, number>();
  const byteObject = (what: ObjectRole, className: string, text: string): number => {
    const ix = create(what, className, KIND_BYTES, text.length, Math.ceil(text.length / 4));
    const w = drafts[ix]!.words;
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (code > 255) throw new Error(`image: ${JSON.stringify(text.slice(0, 40))} has character code ${code} (above 255) at ${i}`);
      w[HEADER_WORDS + (i >> 2)]! |= code << (8 * (i & 3));
    }
    return ix;
  };
  const symbol = (name: string): number => {
    let ix = symbols.get(name);
    if (ix === undefined) {
      ix = byteObject('symbol', 'Symbol', name);
      symbols.set(name, ix);
    }
    return oop(ix);
  };

  // class and metaclass slots
  const namedOf = (name: string): number => {
    let n = 0;
    for (let s: string | null = name; s !== null; s = specs.get(s)!.superclass) n += specs.get(s)!.instVars.length;
    return n;
  };
  const instanceSpec = (c: ClassSpec): number => {
    if (c.name === 'CompiledMethod') return KIND_METHOD << 16;
    if (c.name === 'MethodContext') return KIND_CONTEXT << 16;
    if (c.name === 'Class' || c.name === 'Metaclass') return CLASS_SLOTS + (KIND_POINTERS << 16);
    if (c.kind === 'bytes') return KIND_BYTES << 16;
    return namedOf(c.name) + (KIND_POINTERS << 16) + (c.kind === 'indexable' ? SPEC_INDEXABLE : 0);
  };
  for (const c of classList) {
    const cx = classIx.get(c.name)!;
    const mx = metaIx.get(c.name)!;
    setSlot(cx, CLS_SUPERCLASS, c.superclass === null ? nil : oop(classIx.get(c.superclass)!));
    setSlot(cx, CLS_METHODS, nil);
    setSlot(cx, CLS_SPEC, smallInt(instanceSpec(c)));
    setSlot(cx, CLS_NAME, symbol(c.name));
    setSlot(mx, CLS_SUPERCLASS, c.superclass === null ? oop(classIx.get('Class')!) : oop(metaIx.get(c.superclass)!));
    setSlot(mx, CLS_METHODS, nil);
    setSlot(mx, CLS_SPEC, smallInt(CLASS_SLOTS + (KIND_POINTERS << 16)));
    setSlot(mx, CLS_NAME, symbol(`${c.name} class`));
  }

  // globals: one Association per class, then per global variable
  const globals = new Map<string, number>();
  const association = (key: number, value: number): number => {
    const ix = create('other', 'Association', KIND_POINTERS, 2, 2);
    setSlot(ix, ASSOC_KEY, key);
    setSlot(ix, ASSOC_VALUE, value);
    return oop(ix);
  };
  for (const c of classList) globals.set(c.name, association(symbol(c.name), oop(classIx.get(c.name)!)));
  for (const g of program.globals) {
    if (globals.has(g)) throw new Error(`image: global ${g} is defined twice (or is also a class)`);
    globals.set(g, association(symbol(g), nil));
  }

  // methods
  const literal = (lit: LiteralSpec, where: string): number => {
    switch (lit.kind) {
      case 'int':
        if (!fitsSmallInt(lit.value)) throw new Error(`image: literal ${lit.value} in ${where} is not a SmallInteger`);
        return smallInt(lit.value);
      case 'char':
        return smallInt(lit.code);
      case 'symbol':
        return symbol(lit.name);
      case 'string':
        return oop(byteObject('other', 'String', lit.value));
      case 'global': {
        const a = globals.get(lit.name);
        if (a === undefined) throw new Error(`image: ${where} refers to ${lit.name}, which is neither a class nor a global`);
        return a;
      }
      case 'array': {
        const ix = create('other', 'Array', KIND_POINTERS, lit.elements.length, lit.elements.length);
        lit.elements.forEach((e, i) => setSlot(ix, i, literal(e, where)));
        return oop(ix);
      }
    }
  };
  const compiledMethod = (m: MethodSpec, where: string, literalOops: number[]): number => {
    if (m.numArgs > m.numTemps) throw new Error(`image: ${where} has ${m.numArgs} arguments but ${m.numTemps} arguments + temporaries`);
    if (m.numTemps > 255 || m.literals.length > 255) throw new Error(`image: ${where} has more than 255 temporaries or literals`);
    if (m.primitive < 0 || m.primitive > 127) throw new Error(`image: ${where} names primitive ${m.primitive} (0..127)`);
    const frame = m.numTemps + m.maxStack;
    if (frame > LARGE_FRAME) throw new Error(`image: ${where} needs ${frame} frame slots; a context has at most ${LARGE_FRAME}`);
    const n = m.bytecodes.length;
    const ix = create('method', 'CompiledMethod', KIND_METHOD, n, 1 + literalOops.length + Math.ceil(n / 4));
    const w = drafts[ix]!.words;
    w[HEADER_WORDS] = methodHeader(m.numArgs, m.numTemps, literalOops.length, m.primitive, frame > SMALL_FRAME);
    literalOops.forEach((l, i) => (w[HEADER_WORDS + 1 + i] = l));
    const base = HEADER_WORDS + 1 + literalOops.length;
    for (let i = 0; i < n; i++) w[base + (i >> 2)]! |= m.bytecodes[i]! << (8 * (i & 3));
    return ix;
  };
  const methodDictionary = (owner: string, methods: MethodSpec[], classSide: boolean): number => {
    if (methods.length === 0) return nil;
    let capacity = 1;
    while (capacity < 2 * methods.length) capacity *= 2;
    const dix = create('methodDict', 'MethodDictionary', KIND_POINTERS, 2 * capacity, 2 * capacity);
    for (let i = 0; i < 2 * capacity; i++) setSlot(dix, i, nil);
    const seen = new Set<string>();
    for (const m of methods) {
      const where = `${owner}>>${m.selector}`;
      if (seen.has(m.selector)) throw new Error(`image: ${where} is defined twice`);
      seen.add(m.selector);
      const sel = symbol(m.selector);
      let lits = m.literals.map((l) => literal(l, where));
      const last = m.literals[m.literals.length - 1];
      if (classSide && last?.kind === 'global' && `${last.name} class` === owner && usesSuperSend(m.bytecodes)) {
        // Squeak's methodClass for a class-side method is the metaclass
        lits = [...lits.slice(0, -1), association(symbol(owner), oop(metaIx.get(last.name)!))];
      }
      const mix = compiledMethod(m, where, lits);
      for (let k = 0; ; k++) {
        const i = ((sel >>> 2) + k) & (capacity - 1);
        if (drafts[dix]!.words[HEADER_WORDS + 2 * i] === nil) {
          setSlot(dix, 2 * i, sel);
          setSlot(dix, 2 * i + 1, oop(mix));
          break;
        }
      }
    }
    return oop(dix);
  };
  for (const c of classList) {
    setSlot(classIx.get(c.name)!, CLS_METHODS, methodDictionary(c.name, c.methods, false));
    setSlot(metaIx.get(c.name)!, CLS_METHODS, methodDictionary(`${c.name} class`, c.classMethods, true));
  }

  // the special selectors
  const specialIx = create('other', 'Array', KIND_POINTERS, SPECIAL_SELECTORS.length, SPECIAL_SELECTORS.length);
  SPECIAL_SELECTORS.forEach(([s], i) => setSlot(specialIx, i, symbol(s)));

  // the boot method `^ EntryClass entrySelector: size` and its context
  const entry = specs.get(program.entryClass);
  if (entry === undefined) throw new Error(`image: the entry class ${program.entryClass} is not defined`);
  const colons = program.entrySelector.split(':').length - 1;
  if (colons !== 1 || !program.entrySelector.endsWith(':'))
    throw new Error(`image: the entry selector ${program.entrySelector} must take one argument (the size), like run:`);
  const boot: MethodSpec = {
    selector: 'boot',
    numArgs: 0,
    numTemps: 0,
    primitive: 0,
    literals: [],
    // pushLitVar 0 (the entry class), pushLitConst 2 (size), send1 literal 1 (the selector), returnTop
    bytecodes: Uint8Array.of(BC.pushLitVar + 0, BC.pushLitConst + 2, BC.send1 + 1, BC.returnTop),
    maxStack: 2,
  };
  const bootMethod = oop(compiledMethod(boot, 'the boot method', [globals.get(program.entryClass)!, symbol(program.entrySelector), smallInt(size)]));
  const ctxIx = create('context', 'MethodContext', KIND_CONTEXT, CTX_FIXED + SMALL_FRAME, CTX_FIXED + SMALL_FRAME);
  for (let i = 0; i < CTX_FIXED + SMALL_FRAME; i++) setSlot(ctxIx, i, nil);
  setSlot(ctxIx, CTX_SENDER, nil);
  setSlot(ctxIx, CTX_PC, smallInt(0));
  setSlot(ctxIx, CTX_SP, smallInt(0));
  setSlot(ctxIx, CTX_METHOD, bootMethod);
  setSlot(ctxIx, CTX_RECEIVER, nil);

  // headers and placement, in index order
  const objects: ImageObject[] = [];
  let byteSize = 0;
  for (let i = 0; i < drafts.length; i++) {
    const d = drafts[i]!;
    const cls = d.className.endsWith(' class') ? metaIx.get(d.className.slice(0, -6)) : classIx.get(d.className);
    if (cls === undefined) throw new Error(`image: internal: no class ${d.className}`);
    d.words[HDR_CLASS >> 2] = oop(cls);
    d.words[HDR_OTE >> 2] = oop(i);
    const body = place.place(i, d.words.length, d.what);
    objects.push({ index: i, ote: oop(i), body, words: d.words, what: d.what, className: d.className });
    byteSize += 4 * d.words.length;
  }
  const classes: Record<string, number> = {};
  for (const c of classList) classes[c.name] = oop(classIx.get(c.name)!);
  return { objects, nil, true: oop(trueIx), false: oop(falseIx), classes, specialSelectors: oop(specialIx), bootContext: oop(ctxIx), byteSize };
}
