import { describe, expect, it } from 'vitest';
import { BC, LARGE_FRAME } from './format';
import { BENCHMARKS, buildProgram, compilerBenchmarkRuns, expectedResult, sourceText } from './program';
import { referenceRun } from './reference';
import { compileProgram } from './compiler';
import { COMPILER_BENCH_FILE, COMPILER_BENCH_SOURCE } from './smalltalk/compiler-bench';
import { KERNEL_SOURCE } from './smalltalk/kernel';

describe('buildProgram', () => {
  it('compiles all three benchmarks with their entries, memoised', () => {
    const entries = BENCHMARKS.map((b) => {
      const p = buildProgram(b);
      expect(buildProgram(b)).toBe(p);
      const cls = p.classes.find((c) => c.name === p.entryClass)!;
      const entry = cls.classMethods.find((m) => m.selector === p.entrySelector)!;
      expect(entry.numArgs).toBe(1);
      return `${p.entryClass}>>${p.entrySelector}`;
    });
    expect(entries).toEqual(['TinyBenchmarks>>loop:', 'TinyBenchmarks>>fib:', 'CompilerBenchmark>>run:']);
  });

  it('defines the kernel classes the image builder relies on, superclasses first', () => {
    const p = buildProgram('compiler');
    const byName = new Map(p.classes.map((c, k) => [c.name, { ...c, k }]));
    const expected: [string, string | null, string][] = [
      ['Object', null, 'pointers'], ['Class', 'Object', 'pointers'], ['Metaclass', 'Class', 'pointers'], ['UndefinedObject', 'Object', 'pointers'],
      ['Boolean', 'Object', 'pointers'], ['True', 'Boolean', 'pointers'], ['False', 'Boolean', 'pointers'], ['SmallInteger', 'Object', 'pointers'],
      ['Array', 'ArrayedCollection', 'indexable'], ['String', 'ArrayedCollection', 'bytes'], ['Symbol', 'String', 'bytes'],
      ['Association', 'Object', 'pointers'], ['MethodDictionary', 'Object', 'indexable'], ['CompiledMethod', 'Object', 'bytes'], ['MethodContext', 'Object', 'indexable'],
    ];
    for (const [name, sup, kind] of expected) {
      const c = byName.get(name);
      expect(c, name).toBeDefined();
      expect([c!.superclass, c!.kind], name).toEqual([sup, kind]);
      if (sup) expect(byName.get(sup)!.k, `${sup} before ${name}`).toBeLessThan(c!.k);
    }
    expect(byName.get('Class')!.instVars).toEqual(['superclass', 'methodDict', 'format', 'name']);
    expect(byName.get('Association')!.instVars).toEqual(['key', 'value']);
    // primitives of the kernel methods
    const prim = (cls: string, sel: string, side: 'methods' | 'classMethods' = 'methods') => byName.get(cls)![side].find((m) => m.selector === sel)!.primitive;
    expect([prim('SmallInteger', '+'), prim('SmallInteger', '\\\\'), prim('SmallInteger', 'bitShift:'), prim('Object', '=='), prim('Object', 'class')]).toEqual([1, 11, 17, 110, 111]);
    expect([prim('Array', 'at:'), prim('Array', 'at:put:'), prim('Array', 'size'), prim('String', 'at:'), prim('String', 'at:put:'), prim('String', 'size')]).toEqual([60, 61, 62, 63, 64, 62]);
    expect([prim('Class', 'new'), prim('Class', 'new:'), prim('SourceFile', 'at:'), prim('SourceFile', 'size')]).toEqual([70, 71, 120, 121]);
  });

  it('every method fits its frame and its bytecodes are well formed', () => {
    let methods = 0;
    for (const b of BENCHMARKS) {
      for (const c of buildProgram(b).classes) {
        for (const m of [...c.methods, ...c.classMethods]) {
          methods++;
          expect(m.numTemps + m.maxStack, `${c.name}>>${m.selector}`).toBeLessThanOrEqual(LARGE_FRAME);
          expect(m.literals.length).toBeLessThanOrEqual(64);
        }
      }
    }
    expect(methods).toBeGreaterThan(250);
  });
});

describe('expectedResult (the benchmarks in TypeScript)', () => {
  it('tiny-loop counts the primes up to 8191 (the sieve marks i + 1)', () => {
    let primes = 0;
    for (let n = 2; n <= 8191; n++) {
      let prime = true;
      for (let d = 2; d * d <= n; d++) if (n % d === 0) { prime = false; break; }
      if (prime) primes++;
    }
    expect(expectedResult('tiny-loop', 1)).toBe(primes);
    expect(expectedResult('tiny-loop', 3)).toBe(1028);
  });

  it('tiny-fib counts the calls: 2 fib(n + 1) - 1', () => {
    const fib = (n: number): number => { let a = 0; let b = 1; for (let k = 0; k < n; k++) [a, b] = [b, a + b]; return a; };
    for (const n of [0, 1, 2, 10, 20]) expect(expectedResult('tiny-fib', n)).toBe(2 * fib(n + 1) - 1);
  });

  it('compiler: every generated expression evaluates (exactly, with BigInt) to its result mod 32749', () => {
    const runs = compilerBenchmarkRuns(40);
    expect(runs).toHaveLength(40);
    expect(new Set(runs.map((r) => r.source)).size).toBeGreaterThan(30);
    const names = new Set(COMPILER_BENCH_FILE.split(/\s+/).filter((w) => /^[a-z]+$/.test(w)));
    expect(names.size).toBe(10);
    let ops = 0;
    for (const r of runs) {
      for (const w of r.source.match(/[a-z]+/g) ?? []) expect(names.has(w), w).toBe(true);
      ops += (r.source.match(/[-+*]/g) ?? []).length;
      expect(evalExact(r.source, r.values)).toBe(r.result);
    }
    expect(ops).toBeGreaterThan(40); // not all leaves
    const sum = runs.reduce((s, r) => (s + r.result) % 1000003, 0);
    expect(expectedResult('compiler', 40)).toBe(sum);
  });

  it('sourceText is the compiler benchmark\'s file, empty for the others', () => {
    expect(sourceText('compiler')).toBe(COMPILER_BENCH_FILE);
    expect(sourceText('tiny-loop')).toBe('');
  });
});

describe('the reference interpreter runs the compiled programs to the expected answers', () => {
  for (const [b, n] of [['tiny-fib', 12], ['compiler', 6]] as const) {
    it(`${b} ${n}`, () => {
      const r = referenceRun(buildProgram(b), n, { sourceText: sourceText(b) });
      expect(r.result).toBe(expectedResult(b, n));
      expect(r.bytecodes).toBeGreaterThan(1000);
    });
  }
});

/** An independent evaluator: precedence climbing over BigInt, reduced mod 32749 only at the end. */
function evalExact(src: string, values: Record<string, number>): number {
  const toks = src.match(/\d+|[a-z]+|[-+*()]/g)!;
  let q = 0;
  const prec: Record<string, number> = { '+': 1, '-': 1, '*': 2 };
  const atom = (): bigint => {
    const t = toks[q++]!;
    if (t === '(') {
      const v = climb(1);
      q++; // ')'
      return v;
    }
    return /\d/.test(t) ? BigInt(t) : BigInt(values[t]!);
  };
  const climb = (min: number): bigint => {
    let lhs = atom();
    while (q < toks.length && prec[toks[q]!] !== undefined && prec[toks[q]!]! >= min) {
      const op = toks[q++]!;
      const rhs = climb(prec[op]! + 1);
      lhs = op === '+' ? lhs + rhs : op === '-' ? lhs - rhs : lhs * rhs;
    }
    return lhs;
  };
  const v = climb(1);
  return Number(((v % 32749n) + 32749n) % 32749n);
}

describe('determinism and the super send', () => {
  it('compiles to the same bytes every time; String>>= uses superSend', () => {
    const again = compileProgram([{ name: 'kernel', text: KERNEL_SOURCE }, { name: 'compiler-bench', text: COMPILER_BENCH_SOURCE }], { className: 'CompilerBenchmark', selector: 'run:' });
    expect(again).toEqual(buildProgram('compiler'));
    const eq = again.classes.find((c) => c.name === 'String')!.methods.find((m) => m.selector === '=')!;
    expect([...eq.bytecodes]).toContain(BC.superSend);
    expect(eq.literals[eq.literals.length - 1]).toEqual({ kind: 'global', name: 'String' });
  });
});
