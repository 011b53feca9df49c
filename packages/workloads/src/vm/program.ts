/**
 * The VM's benchmark programs (issue 15): kernel + one benchmark's source, compiled.
 *
 * Contract
 * - BENCHMARKS names the three benchmarks; `buildProgram(b)` compiles the kernel and b's source
 *   once per benchmark (memoised: callers must not mutate the result) into a ProgramSpec whose
 *   entry is a class-side method taking the run's size and answering a SmallInteger:
 *     tiny-loop  `TinyBenchmarks loop: n`  = n benchmark (Squeak's sieve; n iterations)
 *     tiny-fib   `TinyBenchmarks fib: n`   = n benchFib (Squeak's recursive fib; calls made)
 *     compiler   `CompilerBenchmark run: n` (n expressions tokenised, parsed, compiled, evaluated)
 * - `sourceText(b)` is the foreign source text the interpreter must be given (Interpreter's
 *   `foreign.sourceText`, read 1-based by primitives 120/121 on the main core): the compiler
 *   benchmark's "file"; '' for the others (they never read it).
 * - `expectedResult(b, n)` computes the answer in plain TypeScript by the same algorithm (not a
 *   table), to check the interpreter's result.
 */
import { compileProgram, type NamedSource } from './compiler';
import type { ProgramSpec } from './format';
import { COMPILER_BENCH_FILE, COMPILER_BENCH_SOURCE } from './smalltalk/compiler-bench';
import { KERNEL_SOURCE } from './smalltalk/kernel';
import { TINY_SOURCE } from './smalltalk/tiny';

export const BENCHMARKS = ['tiny-loop', 'tiny-fib', 'compiler'] as const;
export type Benchmark = (typeof BENCHMARKS)[number];

const KERNEL: NamedSource = { name: 'kernel', text: KERNEL_SOURCE };
const SOURCES: Record<Benchmark, { source: NamedSource; className: string; selector: string }> = {
  'tiny-loop': { source: { name: 'tiny', text: TINY_SOURCE }, className: 'TinyBenchmarks', selector: 'loop:' },
  'tiny-fib': { source: { name: 'tiny', text: TINY_SOURCE }, className: 'TinyBenchmarks', selector: 'fib:' },
  compiler: { source: { name: 'compiler-bench', text: COMPILER_BENCH_SOURCE }, className: 'CompilerBenchmark', selector: 'run:' },
};

const built = new Map<Benchmark, ProgramSpec>();

export function buildProgram(benchmark: Benchmark): ProgramSpec {
  let p = built.get(benchmark);
  if (!p) {
    const s = SOURCES[benchmark];
    if (!s) throw new Error(`unknown benchmark '${String(benchmark)}' (one of ${BENCHMARKS.join(', ')})`);
    p = compileProgram([KERNEL, s.source], { className: s.className, selector: s.selector });
    built.set(benchmark, p);
  }
  return p;
}

export function sourceText(benchmark: Benchmark): string {
  return benchmark === 'compiler' ? COMPILER_BENCH_FILE : '';
}

// ---------------------------------------------------------------- the answers, in TypeScript

/** Smalltalk's \\ (floored modulo). */
const mod = (a: number, m: number): number => ((a % m) + m) % m;

/** Squeak's Integer>>benchmark: the sieve over 8190 flags, `iterations` times; the last count. */
function sieve(iterations: number): number {
  const size = 8190;
  let count = 0;
  for (let iter = 1; iter <= iterations; iter++) {
    count = 0;
    const flags = new Array<boolean>(size + 1).fill(true);
    for (let i = 1; i <= size; i++) {
      if (!flags[i]) continue;
      const prime = i + 1;
      for (let k = i + prime; k <= size; k += prime) flags[k] = false;
      count++;
    }
  }
  return count;
}

/** Squeak's Integer>>benchFib: the number of calls. */
function benchFib(n: number): number {
  return n < 2 ? 1 : benchFib(n - 1) + benchFib(n - 2) + 1;
}

const EVAL_MODULUS = 32749;
const SUM_MODULUS = 1000003;
const isSep = (c: string): boolean => c === ' ' || c === '\t' || c === '\r' || c === '\n';
const isDigit = (c: string): boolean => c >= '0' && c <= '9';
const isLetter = (c: string): boolean => (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');

type Tok = { kind: 'number'; value: number } | { kind: 'name'; value: string } | { kind: 'open' | 'close' | 'op' | 'end'; value: string };

function tokenize(s: string): Tok[] {
  const out: Tok[] = [];
  let p = 0;
  for (;;) {
    while (p < s.length && isSep(s[p]!)) p++;
    if (p >= s.length) { out.push({ kind: 'end', value: '' }); return out; }
    const c = s[p]!;
    if (isDigit(c)) {
      let v = 0;
      while (p < s.length && isDigit(s[p]!)) v = v * 10 + (s.charCodeAt(p++) - 48);
      out.push({ kind: 'number', value: v });
    } else if (isLetter(c)) {
      const start = p;
      while (p < s.length && isLetter(s[p]!)) p++;
      out.push({ kind: 'name', value: s.slice(start, p) });
    } else {
      p++;
      out.push({ kind: c === '(' ? 'open' : c === ')' ? 'close' : 'op', value: c });
    }
  }
}

/**
 * The compiler benchmark (smalltalk/compiler-bench.ts), step for step: each iteration's
 * expression source, variable values (by name) and result.
 */
export function compilerBenchmarkRuns(n: number): { source: string; values: Record<string, number>; result: number }[] {
  const runs: { source: string; values: Record<string, number>; result: number }[] = [];
  let seed = 42;
  const next = (k: number): number => {
    seed = mod(seed * 75 + 74, 65537);
    return mod(seed, k);
  };
  for (let i = 1; i <= n; i++) {
    const ft = tokenize(COMPILER_BENCH_FILE);
    const bindings: { key: string; value: number }[] = [];
    for (let t = 0; ft[t]!.kind === 'name'; t += 2) {
      const v = ft[t + 1]!;
      if (v.kind !== 'number') throw new Error('compiler benchmark file: a name must be followed by a number');
      bindings.push({ key: ft[t]!.value as string, value: v.value });
    }
    let src = '';
    const leaf = (): void => {
      if (next(2) === 0) src += String(next(1000));
      else src += bindings[next(bindings.length)]!.key;
    };
    const expression = (depth: number): void => {
      const r = next(8);
      if (depth === 0 || r < 2) return leaf();
      if (r < 3) {
        src += '(';
        expression(depth - 1);
        src += ')';
        return;
      }
      expression(depth - 1);
      src += ` ${'+-*'[next(3)]} `;
      expression(depth - 1);
    };
    expression(4);
    // parse with precedence and evaluate (the stack machine's arithmetic: every result \\ 32749)
    const toks = tokenize(src);
    let q = 0;
    const valueOf = (name: string): number => {
      const k = bindings.findIndex((b) => b.key === name);
      if (k < 0) throw new Error(`compiler benchmark: unknown variable ${name}`);
      return mod(bindings[k]!.value * i + (k + 1), EVAL_MODULUS);
    };
    const factor = (): number => {
      const t = toks[q++]!;
      if (t.kind === 'number') return t.value;
      if (t.kind === 'name') return valueOf(t.value);
      if (t.kind === 'open') {
        const v = expr();
        if (toks[q++]!.kind !== 'close') throw new Error(`compiler benchmark: ')' expected in ${src}`);
        return v;
      }
      throw new Error(`compiler benchmark: syntax error in ${src}`);
    };
    const term = (): number => {
      let v = factor();
      while (toks[q]!.kind === 'op' && toks[q]!.value === '*') { q++; v = mod(v * factor(), EVAL_MODULUS); }
      return v;
    };
    const expr = (): number => {
      let v = term();
      while (toks[q]!.kind === 'op' && (toks[q]!.value === '+' || toks[q]!.value === '-')) {
        const op = toks[q++]!.value;
        const r = term();
        v = mod(op === '+' ? v + r : v - r, EVAL_MODULUS);
      }
      return v;
    };
    const result = expr();
    if (toks[q]!.kind !== 'end') throw new Error(`compiler benchmark: trailing tokens in ${src}`);
    const values: Record<string, number> = {};
    for (const b of bindings) values[b.key] = valueOf(b.key);
    runs.push({ source: src, values, result });
  }
  return runs;
}

function compilerBenchmark(n: number): number {
  return compilerBenchmarkRuns(n).reduce((sum, r) => mod(sum + r.result, SUM_MODULUS), 0);
}

export function expectedResult(benchmark: Benchmark, size: number): number {
  switch (benchmark) {
    case 'tiny-loop':
      return sieve(size);
    case 'tiny-fib':
      return benchFib(size);
    case 'compiler':
      return compilerBenchmark(size);
    default:
      throw new Error(`unknown benchmark '${String(benchmark)}' (one of ${BENCHMARKS.join(', ')})`);
  }
}
