import { describe, expect, it } from 'vitest';
import {
  ASSOC_KEY,
  ASSOC_VALUE,
  BC,
  CLS_METHODS,
  CLS_NAME,
  CLS_SPEC,
  CLS_SUPERCLASS,
  CTX_METHOD,
  CTX_RECEIVER,
  CTX_SENDER,
  HDR_CLASS,
  HDR_FORMAT,
  HDR_OTE,
  HEADER_WORDS,
  KIND_BYTES,
  KIND_CONTEXT,
  KIND_POINTERS,
  SPECIAL_SELECTORS,
  SPEC_INDEXABLE,
  fmtCount,
  fmtKind,
  intValue,
  mhLiterals,
  type ClassSpec,
  type MethodSpec,
  type ProgramSpec,
} from './format';
import { layoutImage } from './image';
import { FlatPlacement, HostMemory, writeImage } from './reference';

const m = (selector: string, bytes: number[], literals: MethodSpec['literals'] = [], numArgs = selector.split(':').length - 1): MethodSpec => ({
  selector,
  numArgs,
  numTemps: numArgs,
  primitive: 0,
  literals,
  bytecodes: Uint8Array.from(bytes),
  maxStack: 4,
});
const cls = (name: string, superclass: string | null, methods: MethodSpec[] = [], classMethods: MethodSpec[] = [], extra: Partial<ClassSpec> = {}): ClassSpec => ({
  name,
  superclass,
  instVars: [],
  kind: 'pointers',
  methods,
  classMethods,
  ...extra,
});

// 24 selectors on one class: the dictionary has 64 slots (capacity 32 >= 2 x 24)
const many = Array.from({ length: 24 }, (_, i) => m(`sel${i}`, [BC.pushOne + 0, BC.returnTop]));
const program: ProgramSpec = {
  classes: [
    cls('Object', null),
    cls('Animal', 'Object', [m('speak', [BC.pushTwo, BC.returnTop])], [], { instVars: ['legs'] }),
    cls('Dog', 'Animal', [...many, m('bark', [BC.pushLitConst, BC.returnTop], [{ kind: 'symbol', name: 'speak' }])], [], { instVars: ['name'], kind: 'indexable' }),
    cls('Main', 'Object', [], [m('run:', [BC.pushLitVar + 0, BC.returnTop], [{ kind: 'global', name: 'Counter' }])]),
  ],
  globals: ['Counter'],
  entryClass: 'Main',
  entrySelector: 'run:',
};

function build(p: ProgramSpec = program, size = 7) {
  const placement = new FlatPlacement(0x100000, 0x10000, 1 << 16);
  const image = layoutImage(p, size, placement);
  const mem = new HostMemory(0x200000);
  writeImage(mem, image);
  const body = (oop: number) => mem.load32(oop);
  const slot = (oop: number, i: number) => mem.load32(body(oop) + 4 * (HEADER_WORDS + i));
  const classOf = (oop: number) => mem.load32(body(oop) + HDR_CLASS);
  const text = (oop: number) => {
    const n = fmtCount(mem.load32(body(oop) + HDR_FORMAT));
    let s = '';
    for (let i = 0; i < n; i++) s += String.fromCharCode(mem.load8(body(oop) + 4 * HEADER_WORDS + i));
    return s;
  };
  return { image, mem, body, slot, classOf, text, placement };
}

describe('layoutImage', () => {
  it('links every class to its metaclass, metaclasses to their superclasses\' metaclasses, Object class to Class, and all metaclasses to Metaclass', () => {
    const { image, slot, classOf, text } = build();
    const C = image.classes;
    for (const name of ['Object', 'Animal', 'Dog', 'Main', 'SmallInteger', 'Metaclass', 'Class', 'MethodContext']) expect(C[name], name).toBeDefined();
    const meta = (name: string) => classOf(C[name]!);
    expect(slot(C.Dog!, CLS_SUPERCLASS)).toBe(C.Animal);
    expect(slot(C.Animal!, CLS_SUPERCLASS)).toBe(C.Object);
    expect(slot(C.Object!, CLS_SUPERCLASS)).toBe(image.nil);
    expect(slot(meta('Dog'), CLS_SUPERCLASS)).toBe(meta('Animal'));
    expect(slot(meta('Animal'), CLS_SUPERCLASS)).toBe(meta('Object'));
    expect(slot(meta('Object'), CLS_SUPERCLASS)).toBe(C.Class);
    for (const name of Object.keys(C)) {
      expect(classOf(meta(name)), `${name} class class`).toBe(C.Metaclass);
      expect(text(slot(C[name]!, CLS_NAME))).toBe(name);
      expect(text(slot(meta(name), CLS_NAME))).toBe(`${name} class`);
    }
    // Metaclass class is an instance of Metaclass too; the kernel classes the program lacks were added under Object
    expect(classOf(classOf(C.Metaclass!))).toBe(C.Metaclass);
    expect(slot(C.True!, CLS_SUPERCLASS)).toBe(C.Boolean);
    expect(slot(C.Symbol!, CLS_SUPERCLASS)).toBe(C.String);
    expect(classOf(image.nil)).toBe(C.UndefinedObject);
    expect(classOf(image.true)).toBe(C.True);
    expect(classOf(image.false)).toBe(C.False);
    // instance specs: inherited named slots counted; kinds and the indexable flag
    expect(intValue(slot(C.Dog!, CLS_SPEC))).toBe(2 + (KIND_POINTERS << 16) + SPEC_INDEXABLE);
    expect(intValue(slot(C.Animal!, CLS_SPEC))).toBe(1);
    expect(intValue(slot(C.String!, CLS_SPEC))).toBe(KIND_BYTES << 16);
    expect(intValue(slot(C.MethodContext!, CLS_SPEC))).toBe(KIND_CONTEXT << 16);
  });

  it('finds every selector by the format\'s probe order in dictionaries of a power-of-two capacity at most half full', () => {
    const { image, mem, body, slot, text } = build();
    const dict = slot(image.classes.Dog!, CLS_METHODS);
    const slots = fmtCount(mem.load32(body(dict) + HDR_FORMAT));
    const capacity = slots / 2;
    expect(capacity).toBe(64); // 25 methods: 2 x 25 = 50 -> 64
    let used = 0;
    for (let i = 0; i < capacity; i++) if (slot(dict, 2 * i) !== image.nil) used++;
    expect(used).toBe(25);
    const symbols = new Map(image.objects.filter((o) => o.what === 'symbol').map((o) => [text(o.ote), o.ote]));
    for (const sel of [...many.map((x) => x.selector), 'bark']) {
      const s = symbols.get(sel)!;
      let found = 0;
      for (let k = 0; k < capacity; k++) {
        const i = ((s >>> 2) + k) & (capacity - 1);
        const key = slot(dict, 2 * i);
        if (key === image.nil) break;
        if (key === s) {
          found = slot(dict, 2 * i + 1);
          break;
        }
      }
      expect(found, sel).not.toBe(0);
      const header = slot(found, 0);
      const lits = mhLiterals(header);
      const firstBytecode = mem.load8(body(found) + 4 * (HEADER_WORDS + 1 + lits));
      expect(firstBytecode).toBe(sel === 'bark' ? BC.pushLitConst : BC.pushOne);
    }
    // a class without methods has nil
    expect(slot(image.classes.Object!, CLS_METHODS)).toBe(image.nil);
  });

  it('makes one Symbol per name: the literal #speak, the selector speak and the special selectors share objects', () => {
    const { image, slot, text } = build();
    const syms = image.objects.filter((o) => o.what === 'symbol').map((o) => text(o.ote));
    expect(new Set(syms).size).toBe(syms.length);
    for (const [s] of SPECIAL_SELECTORS) expect(syms).toContain(s);
    const speak = image.objects.find((o) => o.what === 'symbol' && text(o.ote) === 'speak')!.ote;
    const dogDict = slot(image.classes.Dog!, CLS_METHODS);
    const bark = Array.from({ length: 64 }, (_, i) => i).find((i) => text(slot(dogDict, 2 * i)) === 'bark')!;
    expect(slot(slot(dogDict, 2 * bark + 1), 1)).toBe(speak); // bark's literal 0
    const animalDict = slot(image.classes.Animal!, CLS_METHODS);
    expect([slot(animalDict, 0), slot(animalDict, 2)]).toContain(speak);
    // the special selectors Array holds the 32 symbols in order
    expect(SPECIAL_SELECTORS.map((_, i) => text(slot(image.specialSelectors, i)))).toEqual(SPECIAL_SELECTORS.map(([s]) => s));
  });

  it('points every OTE at its body and every back pointer at its OTE, in index order, deterministically', () => {
    const a = build();
    const b = build();
    expect(a.image.objects.length).toBe(b.image.objects.length);
    let bytes = 0;
    a.image.objects.forEach((o, i) => {
      expect(o.index).toBe(i);
      expect(o.ote).toBe(0x10000 + 4 * i);
      expect(a.mem.load32(o.ote)).toBe(o.body);
      expect(a.mem.load32(o.body + HDR_OTE)).toBe(o.ote);
      expect(Array.from(o.words)).toEqual(Array.from(b.image.objects[i]!.words));
      bytes += 4 * o.words.length;
    });
    expect(a.image.byteSize).toBe(bytes);
    expect(a.placement.next - 0x100000).toBe(bytes);
  });

  it('builds the globals and a boot context running EntryClass entrySelector: size', () => {
    const { image, slot, classOf, text, mem, body } = build(program, 1234);
    const ctx = image.bootContext;
    expect(classOf(ctx)).toBe(image.classes.MethodContext);
    expect(fmtKind(mem.load32(body(ctx) + HDR_FORMAT))).toBe(KIND_CONTEXT);
    expect(slot(ctx, CTX_SENDER)).toBe(image.nil);
    expect(slot(ctx, CTX_RECEIVER)).toBe(image.nil);
    const boot = slot(ctx, CTX_METHOD);
    const assoc = slot(boot, 1);
    expect(text(slot(assoc, ASSOC_KEY))).toBe('Main');
    expect(slot(assoc, ASSOC_VALUE)).toBe(image.classes.Main);
    expect(text(slot(boot, 2))).toBe('run:');
    expect(intValue(slot(boot, 3))).toBe(1234);
    expect(image.objects.find((o) => o.ote === ctx)!.what).toBe('context');
    // Main class>>run:'s literal is the Counter global's Association (value nil)
    const runDict = slot(classOf(image.classes.Main!), CLS_METHODS);
    const run = [0, 1].map((i) => slot(runDict, 2 * i + 1)).find((x) => x !== image.nil)!;
    const counter = slot(run, 1);
    expect(text(slot(counter, ASSOC_KEY))).toBe('Counter');
    expect(slot(counter, ASSOC_VALUE)).toBe(image.nil);
  });

  it('names the problem in a bad program', () => {
    const bad = (p: Partial<ProgramSpec>) => () => layoutImage({ ...program, ...p }, 1, new FlatPlacement(0x100000, 0x10000, 1 << 16));
    expect(bad({ classes: [...program.classes, cls('Cat', 'Feline')] })).toThrow(/Cat's superclass Feline is not defined/);
    expect(bad({ classes: [...program.classes, cls('Dog', 'Object')] })).toThrow(/class Dog is defined twice/);
    expect(bad({ globals: [] })).toThrow(/Main class>>run: refers to Counter, which is neither a class nor a global/);
    expect(bad({ entrySelector: 'run' })).toThrow(/entry selector run must take one argument/);
    expect(bad({ classes: [...program.classes, cls('Text', 'Object', [m('t', [BC.pushLitConst, BC.returnTop], [{ kind: 'string', value: 'π' }])])] })).toThrow(
      /character code 960/,
    );
  });
});
