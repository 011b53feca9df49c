import { describe, expect, it } from 'vitest';
import { BC, SPECIAL_SELECTORS, type MethodSpec, type ProgramSpec } from '../format';
import { CompileError, compileProgram, disassemble, stackDepths } from './index';

const PRELUDE = `nil subclass: #Object instanceVariableNames: '' !
Object subclass: #Foo instanceVariableNames: 'a b' !
Foo subclass: #Bar instanceVariableNames: 'c' !
Foo class >> main: n
    ^ n
!
`;

function compile(methods: string, extra = ''): ProgramSpec {
  return compileProgram([{ name: 'prelude', text: PRELUDE + extra }, { name: 'test', text: methods }], { className: 'Foo', selector: 'main:' });
}

function method(methods: string, selector: string, className = 'Foo', classSide = false): MethodSpec {
  const c = compile(methods).classes.find((x) => x.name === className)!;
  const m = (classSide ? c.classMethods : c.methods).find((x) => x.selector === selector);
  if (!m) throw new Error(`no ${className}>>${selector}`);
  return m;
}

const bytes = (m: MethodSpec): number[] => [...m.bytecodes];

function compileError(methods: string, extra = ''): CompileError {
  try {
    compile(methods, extra);
  } catch (e) {
    if (e instanceof CompileError) return e;
    throw e;
  }
  throw new Error('expected a CompileError');
}

describe('bytecodes, byte for byte', () => {
  it('pushes, stores and returns use the short forms', () => {
    const m = method('Foo >> setA: x\n    | t |\n    t := x.\n    a := t.\n    ^ a\n!', 'setA:');
    // pushTemp 0, popTemp 1, pushTemp 1, popRcvr 0, pushRcvr 0, returnTop
    expect(bytes(m)).toEqual([0x10, 0x69, 0x11, 0x60, 0x00, 0x7c]);
    expect(m).toMatchObject({ numArgs: 1, numTemps: 2, primitive: 0, maxStack: 1, literals: [] });
  });

  it('an assignment for value stores without popping; constants and self have their own returns', () => {
    expect(bytes(method('Foo >> f: x\n  ^ b := x\n!', 'f:'))).toEqual([0x10, BC.extendedStore, 0x01, 0x7c]);
    expect(bytes(method('Foo >> f\n  ^ self\n!', 'f'))).toEqual([0x78]);
    expect(bytes(method('Foo >> f\n  ^ nil\n!', 'f'))).toEqual([0x7b]);
    expect(bytes(method('Foo >> f\n  a := 2\n!', 'f'))).toEqual([0x77, 0x60, 0x78]); // the end returns self
    expect(bytes(method('Foo >> f\n  ^ -1 + 0\n!', 'f'))).toEqual([0x74, 0x75, 0xb0, 0x7c]);
  });

  it('inlines ifTrue:ifFalse: into a conditional and an unconditional jump (as Squeak)', () => {
    const m = method('Foo >> pick: x\n  ^ x ifTrue: [1] ifFalse: [2]\n!', 'pick:');
    expect(bytes(m)).toEqual([0x10, 0x99, 0x76, 0x90, 0x77, 0x7c]);
    expect(disassemble(m.bytecodes)).toEqual(['0: pushTemp 0', '1: jumpFalse 4', '2: push 1', '3: jump 5', '4: push 2', '5: returnTop']);
    // a missing branch answers nil
    expect(bytes(method('Foo >> pick: x\n  ^ x ifTrue: [1]\n!', 'pick:'))).toEqual([0x10, 0x99, 0x76, 0x90, 0x73, 0x7c]);
    // for effect: no nil, no pop; ifFalse: jumps on true (the long form: there is no short jumpTrue)
    expect(bytes(method('Foo >> f: x\n  x ifTrue: [a := 1].\n  ^ a\n!', 'f:'))).toEqual([0x10, 0x99, 0x76, 0x60, 0x00, 0x7c]);
    expect(bytes(method('Foo >> f: x\n  x ifFalse: [a := 1].\n  ^ a\n!', 'f:'))).toEqual([0x10, 0xa8, 2, 0x76, 0x60, 0x00, 0x7c]);
    // a branch ending in a return needs no jump over the other branch
    expect(bytes(method('Foo >> f: x\n  x ifTrue: [^ 1] ifFalse: [a := 2].\n  ^ a\n!', 'f:'))).toEqual([0x10, 0x99, 0x76, 0x7c, 0x77, 0x60, 0x00, 0x7c]);
  });

  it('inlines and: and or:', () => {
    // x and: [y]: x jumpFalse L1; y; jump L2; L1: false; L2:
    expect(bytes(method('Foo >> f: x g: y\n  ^ x and: [y]\n!', 'f:g:'))).toEqual([0x10, 0x99, 0x11, 0x90, 0x72, 0x7c]);
    // x or: [y]: x jumpFalse L1; true; jump L2; L1: y; L2:
    expect(bytes(method('Foo >> f: x g: y\n  ^ x or: [y]\n!', 'f:g:'))).toEqual([0x10, 0x99, 0x71, 0x90, 0x11, 0x7c]);
  });

  it('inlines whileTrue: into a test, a forward exit and a long jump back', () => {
    const m = method('Foo >> count: n\n  | i |\n  i := 0.\n  [i < n] whileTrue: [i := i + 1].\n  ^ i\n!', 'count:');
    expect(bytes(m)).toEqual([0x75, 0x69, 0x11, 0x10, 0xb2, 0x9d, 0x11, 0x76, 0xb0, 0x69, 0xa3, 0xf6, 0x11, 0x7c]);
    expect(disassemble(m.bytecodes).slice(2, 7)).toEqual(['2: pushTemp 1', '3: pushTemp 0', '4: send <', '5: jumpFalse 12', '6: pushTemp 1']);
    expect(disassemble(m.bytecodes)[10]).toBe('10: jump 2');
    expect(m.maxStack).toBe(2);
    // whileFalse exits on true; unary whileTrue has no body
    expect(bytes(method('Foo >> f\n  [a] whileFalse: [a := b]\n!', 'f'))).toEqual([0x00, 0xa8, 4, 0x01, 0x60, 0xa3, 0xf9, 0x78]);
    expect(bytes(method('Foo >> f\n  [a] whileTrue\n!', 'f'))).toEqual([0x00, 0x99, 0xa3, 0xfc, 0x78]);
  });

  it('inlines to:do: with the limit in a hidden temporary and the block argument as a temporary', () => {
    const m = method('Foo >> sum: n\n  | s |\n  s := 0.\n  1 to: n do: [:k | s := s + k].\n  ^ s\n!', 'sum:');
    // temps: n 0, s 1, limit 2 (hidden), k 3
    expect(bytes(m)).toEqual([
      0x75, 0x69, // s := 0
      0x76, 0x6b, 0x10, 0x6a, // k := 1. limit := n
      0x13, 0x12, 0xb4, 0xac, 10, // k <= limit, else exit
      0x11, 0x13, 0xb0, 0x69, // s := s + k
      0x13, 0x76, 0xb0, 0x6b, // k := k + 1
      0xa3, 0xf1, // jump back to the test
      0x11, 0x7c,
    ]);
    expect(m.numTemps).toBe(4);
    // a literal limit is pushed, not stored; a negative step compares with >=
    expect(bytes(method('Foo >> f\n  10 to: 1 by: -1 do: [:k | a := k]\n!', 'f'))).toEqual([
      0x20, 0x68, 0x10, 0x76, 0xb5, 0x9f, 0x10, 0x60, 0x10, 0x74, 0xb0, 0x68, 0xa3, 0xf4, 0x78,
    ]);
  });

  it('inlines timesRepeat: with a hidden counter', () => {
    expect(bytes(method('Foo >> f: n\n  n timesRepeat: [a := b]\n!', 'f:'))).toEqual([
      0x10, 0x69, // counter := n
      0x11, 0x75, 0xb3, 0x9f, // counter > 0, else exit
      0x01, 0x60, // a := b
      0x11, 0x76, 0xb1, 0x69, // counter := counter - 1
      0xa3, 0xf4, 0x78,
    ]);
  });

  it('compiles a super send with the class Association as the last literal', () => {
    const m = method('Foo >> foo\n  ^ 1\n!\nBar >> foo\n  ^ super foo + c\n!', 'foo', 'Bar');
    expect(bytes(m)).toEqual([0x70, BC.superSend, 0x00, 0x02, 0xb0, 0x7c]);
    expect(m.literals).toEqual([{ kind: 'symbol', name: 'foo' }, { kind: 'global', name: 'Bar' }]);
    expect(disassemble(m.bytecodes)[1]).toBe('1: superSend lit 0 args 0');
    // a special selector sent to super still goes through superSend
    const s = method('Bar >> = x\n  ^ super = x\n!', '=', 'Bar');
    expect(bytes(s)).toEqual([0x70, 0x10, BC.superSend, 0x20, 0x7c]);
    expect(s.literals).toEqual([{ kind: 'symbol', name: '=' }, { kind: 'global', name: 'Bar' }]);
  });

  it('compiles a cascade with dup and pop', () => {
    const m = method('Foo >> build: ws\n  ws nextPut: 1; nextPut: 2; yourself\n!', 'build:');
    const nextPut = BC.sendSpecial + SPECIAL_SELECTORS.findIndex(([s]) => s === 'nextPut:');
    expect(bytes(m)).toEqual([0x10, 0x88, 0x76, nextPut, 0x87, 0x88, 0x77, nextPut, 0x87, 0xd0, 0x87, 0x78]);
    expect(m.maxStack).toBe(3);
    expect(m.literals).toEqual([{ kind: 'symbol', name: 'yourself' }]);
  });

  it('chooses send0/1/2, single and double extended sends by literal index and argument count', () => {
    const m = method('Foo >> f\n  ^ self a: 1 b: 2 c: 3\n!', 'f');
    expect(bytes(m)).toEqual([0x70, 0x76, 0x77, 0x20, 0x83, (3 << 5) | 1, 0x7c]);
    expect(m.literals).toEqual([{ kind: 'int', value: 3 }, { kind: 'symbol', name: 'a:b:c:' }]);
    // 16 literals first: the 17th selector (index 16) needs the extended form
    const sels = Array.from({ length: 16 }, (_, k) => `self s${k}.`).join(' ');
    const big = method(`Foo >> f\n  ${sels} ^ self last: 1\n!`, 'f');
    expect(bytes(big).slice(-4)).toEqual([0x76, 0x83, (1 << 5) | 16, 0x7c]);
    expect(bytes(big).slice(0, 3)).toEqual([0x70, 0xd0, 0x87]);
  });
});

describe('maxStack, literal frames, temporaries', () => {
  it('maxStack is the deepest point of any path', () => {
    expect(method('Foo >> f\n  ^ a\n!', 'f').maxStack).toBe(1);
    expect(method('Foo >> f\n  ^ a foo: 1 bar: (b baz: 2 qux: 3)\n!', 'f').maxStack).toBe(5);
    expect(method('Foo >> f\n  a := 1\n!', 'f').maxStack).toBe(1);
    expect(method('Foo >> f\n  self\n!', 'f').maxStack).toBe(0);
  });

  it('stackDepths follows every path and checks the depths agree', () => {
    const m = method('Foo >> pick: x\n  ^ x ifTrue: [1] ifFalse: [2]\n!', 'pick:');
    expect([...stackDepths(m.bytecodes, 0)]).toEqual([0, 1, 0, 1, 0, 1]);
    expect(() => stackDepths(Uint8Array.from([0x76, 0x90, 0x7c]), 0)).toThrow(/flows to 3/);
    expect(() => stackDepths(Uint8Array.from([0x87, 0x78]), 0)).toThrow(/underflow/);
  });

  it('literals are in order of first use, shared when equal, with nested literal arrays', () => {
    const m = method("Foo >> f\n  a := #(1 -2 $a 'it''s' #sym sym at:put: #+ (3 4) #(5)).\n  b := 'it''s'.\n  ^ #sym\n!", 'f');
    expect(m.literals).toEqual([
      {
        kind: 'array',
        elements: [
          { kind: 'int', value: 1 }, { kind: 'int', value: -2 }, { kind: 'char', code: 97 }, { kind: 'string', value: "it's" },
          { kind: 'symbol', name: 'sym' }, { kind: 'symbol', name: 'sym' }, { kind: 'symbol', name: 'at:put:' }, { kind: 'symbol', name: '+' },
          { kind: 'array', elements: [{ kind: 'int', value: 3 }, { kind: 'int', value: 4 }] },
          { kind: 'array', elements: [{ kind: 'int', value: 5 }] },
        ],
      },
      { kind: 'string', value: "it's" },
      { kind: 'symbol', name: 'sym' },
    ]);
    expect(bytes(m)).toEqual([0x20, 0x60, 0x21, 0x61, 0x22, 0x7c]);
    // a class name is a global: pushLitVar of its Association
    const g = method('Foo >> f\n  ^ Bar\n!', 'f');
    expect(bytes(g)).toEqual([0x40, 0x7c]);
    expect(g.literals).toEqual([{ kind: 'global', name: 'Bar' }]);
  });

  it('uses the extended forms past the short ranges', () => {
    const names = Array.from({ length: 17 }, (_, k) => `t${k}`);
    const m = method(`Foo >> f\n  | ${names.join(' ')} |\n  t16 := 1.\n  t8 := t16.\n  ^ t16\n!`, 'f');
    expect(bytes(m)).toEqual([0x76, BC.extendedPopStore, 0x50, BC.extendedPush, 0x50, BC.extendedPopStore, 0x48, BC.extendedPush, 0x50, 0x7c]);
    const lits = Array.from({ length: 33 }, (_, k) => `${100 + k}`).join('. ');
    const l = method(`Foo >> f\n  ${lits}. ^ 132\n!`, 'f'); // literals as statements for effect emit nothing
    expect(l.literals).toEqual([{ kind: 'int', value: 132 }]);
    const pushes = Array.from({ length: 33 }, (_, k) => `a := ${100 + k}`).join('. ');
    const p = method(`Foo >> f\n  ${pushes}\n!`, 'f');
    expect(bytes(p).slice(-4)).toEqual([BC.extendedPush, 0x80 | 32, 0x60, 0x78]);
  });
});

describe('compile errors name the source, line, column and problem', () => {
  it('an unknown variable', () => {
    const e = compileError('Foo >> f\n  ^ a + zork\n!');
    expect(e.message).toBe("test:2:9: unknown variable 'zork' (not a temporary, argument, instance variable, class or global) (in Foo>>f)");
    expect([e.sourceName, e.line, e.column]).toEqual(['test', 2, 9]);
  });

  it('a block that is not inlined', () => {
    expect(compileError('Foo >> f\n  a := [1]\n!').message).toMatch(/^test:2:8: blocks are only inlined .* \(in Foo>>f\)$/);
    expect(compileError('Foo >> f: x\n  ^ x ifTrue: [:y | y]\n!').message).toBe('test:2:15: the block of ifTrue: takes 0 arguments, not 1 (in Foo>>f:)');
    expect(compileError('Foo >> f\n  a do: [:x | b := x]\n!').message).toMatch(/^test:2:9: blocks are only inlined/);
  });

  it('too many literals', () => {
    const sends = Array.from({ length: 65 }, (_, k) => `self m${k}`).join('. ');
    expect(compileError(`Foo >> big\n  ${sends}\n!`).message).toBe('test:1:8: too many literals: 65 (at most 64) (in Foo>>big)');
  });

  it('too many temporaries', () => {
    const names = Array.from({ length: 65 }, (_, k) => `t${k}`).join(' ');
    expect(compileError(`Foo >> big\n  | ${names} |\n  ^ 1\n!`).message).toBe('test:1:8: too many temporaries: 65 arguments and temporaries (at most 64) (in Foo>>big)');
  });

  it('assignments to undeclared variables, arguments and classes; super on the class side', () => {
    expect(compileError('Foo >> f\n  zork := 1\n!').message).toBe("test:2:3: assignment to undeclared variable 'zork' (in Foo>>f)");
    expect(compileError('Foo >> f: x\n  x := 1\n!').message).toBe("test:2:3: cannot assign to the argument 'x' (in Foo>>f:)");
    expect(compileError('Foo >> f\n  Bar := 1\n!').message).toBe("test:2:3: cannot assign to the class 'Bar' (in Foo>>f)");
    expect(compileError('Foo class >> f\n  ^ super new\n!').message).toBe('test:2:11: super sends are not supported in class-side methods (in Foo class>>f)');
    expect(compileError('Foo >> f\n  | a |\n  ^ 1\n!').message).toBe("test:2:5: 'a' shadows an instance variable (in Foo>>f)");
  });

  it('syntax and lexical errors', () => {
    expect(compileError('Foo >> f\n  ^ 1.5\n!').message).toBe('test:2:5: floats are not supported (SmallIntegers only)');
    expect(compileError("Foo >> f\n  ^ 'abc\n!").message).toBe('test:2:5: unterminated string literal');
    expect(compileError('Foo >> f\n  ^ 1\n').message).toBe("test:3:1: expected '!' to end the chunk, found the end of the source");
    expect(compileError('Foo >> f\n  ^ 1. 2\n!').message).toBe('test:2:8: unreachable code after a ^ return');
    expect(compileError('Foo >> f\n  ^ thisContext\n!').message).toBe('test:2:5: thisContext is not supported');
    expect(compileError('Foo >> f\n  ^ 1073741824\n!').message).toBe('test:2:5: integer literal 1073741824 is outside the SmallInteger range (in Foo>>f)');
    expect(compileError('Foo >> f\n  ^ #(true)\n!').message).toMatch(/^test:2:7: true inside a literal array is not supported/);
  });

  it('class graph and entry errors', () => {
    expect(compileError('', 'Zork subclass: #Baz instanceVariableNames: \'\' !\n').message).toBe('prelude:7:1: superclass Zork of Baz is not defined');
    expect(compileError('', 'Object subclass: #Foo instanceVariableNames: \'\' !\n').message).toBe('prelude:7:18: class Foo is defined twice');
    expect(compileError('', "Object subclass: #Str instanceVariableNames: 'x' kind: #bytes !\n").message).toBe('prelude:7:18: Str has kind #bytes but 1 named instance variable (bytes classes have none)');
    expect(compileError('Baz >> f\n  ^ 1\n!').message).toBe('test:1:8: method for undefined class Baz');
    expect(() => compileProgram([PRELUDE], { className: 'Foo', selector: 'run:' })).toThrow('<entry>: entry method Foo class>>run: is not defined');
  });
});

describe('the language', () => {
  it('unknown identifiers are globals only when declared', () => {
    const src = 'Foo >> f\n  Counter := 3.\n  ^ Counter\n!';
    const p = compile(src, 'Smalltalk global: #Counter !\n');
    expect(p.globals).toEqual(['Counter']);
    const m = p.classes.find((c) => c.name === 'Foo')!.methods[0]!;
    expect(bytes(m)).toEqual([0x20, BC.extendedPopStore, 0xc1, 0x41, 0x7c]);
    expect(m.literals).toEqual([{ kind: 'int', value: 3 }, { kind: 'global', name: 'Counter' }]);
    expect(compileError(src).message).toBe("test:2:3: assignment to undeclared variable 'Counter' (in Foo>>f)");
  });

  it('negative literals, radix integers, characters and precedence', () => {
    const m = method('Foo >> f\n  ^ 3 - -4 * 16r10 + $a\n!', 'f');
    // ((3 - -4) * 16) + 97
    expect(m.literals).toEqual([{ kind: 'int', value: 3 }, { kind: 'int', value: -4 }, { kind: 'int', value: 16 }, { kind: 'char', code: 97 }]);
    expect(bytes(m)).toEqual([0x20, 0x21, 0xb1, 0x22, 0xb8, 0x23, 0xb0, 0x7c]);
    const k = method('Foo >> f\n  ^ a max: b + 1 negated\n!', 'f');
    expect(disassemble(k.bytecodes)).toEqual(['0: pushRcvr 0', '1: pushRcvr 1', '2: push 1', '3: send lit 0 args 0', '4: send +', '5: send lit 1 args 1', '6: returnTop']);
  });

  it('a primitive pragma sets the header field and the fallback code follows', () => {
    const m = method('Foo >> + x\n  <primitive: 1>\n  ^ self primitiveFailed: #+\n!', '+');
    expect(m.primitive).toBe(1);
    expect(bytes(m)).toEqual([0x70, 0x20, 0xe1, 0x7c]);
  });
});
