/**
 * The VM's compiler (issue 15): Smalltalk-like source (the language: parser.ts) -> ProgramSpec
 * (format.ts), on the host, deterministically.
 *
 * Contract
 * - `compileProgram(sources, entry)` parses every source, collects the class definitions and
 *   globals of all of them first (a method may name a class defined later or in another source),
 *   checks the class graph (one root with superclass nil, every superclass defined, no cycles, no
 *   duplicate classes or methods, kinds consistent), compiles every method (codegen.ts) and checks
 *   the entry: a class-side method `entry.selector` of `entry.className` taking one argument.
 * - Classes come out superclasses first (definition order otherwise); methods in source order.
 * - Every problem is a CompileError whose message names the source, line, column (when there is
 *   one) and the problem; nothing else is thrown for bad input.
 * - A source is a string (named `source1`, `source2`, ... in messages) or `{ name, text }`.
 */
import type { ClassSpec, MethodSpec, ProgramSpec } from '../format';
import { compileMethod, type ClassInfo, type CompileEnv } from './codegen';
import { CompileError } from './lexer';
import { parseSource, type Chunk, type Pos } from './parser';

export { CompileError } from './lexer';
export { disassemble, stackDepths, MAX_LITERALS, MAX_TEMPS } from './codegen';

export interface NamedSource {
  name: string;
  text: string;
}

export function compileProgram(sources: (string | NamedSource)[], entry: { className: string; selector: string }): ProgramSpec {
  const named = sources.map((s, k) => (typeof s === 'string' ? { name: `source${k + 1}`, text: s } : s));
  const chunks: { chunk: Chunk; source: string }[] = [];
  for (const src of named) for (const chunk of parseSource(src)) chunks.push({ chunk, source: src.name });

  const classes = new Map<string, ClassInfo & { pos: Pos; superPos: Pos; source: string }>();
  const globals = new Set<string>();
  const globalList: string[] = [];
  for (const { chunk: c, source } of chunks) {
    if (c.t === 'class') {
      if (classes.has(c.name)) throw new CompileError(`class ${c.name} is defined twice`, source, c.pos.line, c.pos.column);
      classes.set(c.name, { name: c.name, superclass: c.superclass, instVars: c.instVars, kind: c.kind, pos: c.pos, superPos: c.superPos, source });
    } else if (c.t === 'global') {
      if (globals.has(c.name)) throw new CompileError(`global ${c.name} is declared twice`, source, c.pos.line, c.pos.column);
      globals.add(c.name);
      globalList.push(c.name);
    }
  }
  for (const g of globalList) {
    if (classes.has(g)) {
      const c = chunks.find((x) => x.chunk.t === 'global' && x.chunk.name === g)!;
      const pos = (c.chunk as { pos: Pos }).pos;
      throw new CompileError(`global ${g} has the name of a class`, c.source, pos.line, pos.column);
    }
  }

  // the class graph
  const roots = [...classes.values()].filter((c) => c.superclass === null);
  if (classes.size > 0 && roots.length !== 1) {
    const c = roots[1] ?? [...classes.values()][0]!;
    throw new CompileError(roots.length === 0 ? 'no root class (a class defined with nil subclass: ...)' : `more than one root class (${roots.map((r) => r.name).join(', ')})`, c.source, c.pos.line, c.pos.column);
  }
  for (const c of classes.values()) {
    if (c.superclass === null) continue;
    const sup = classes.get(c.superclass);
    if (!sup) throw new CompileError(`superclass ${c.superclass} of ${c.name} is not defined`, c.source, c.superPos.line, c.superPos.column);
    if ((sup.kind === 'indexable' || sup.kind === 'bytes') && c.kind !== sup.kind) throw new CompileError(`${c.name} must have kind #${sup.kind} like its superclass ${sup.name}`, c.source, c.pos.line, c.pos.column);
  }
  const order: string[] = [];
  const state = new Map<string, 1 | 2>();
  const visit = (name: string): void => {
    const c = classes.get(name)!;
    if (state.get(name) === 2) return;
    if (state.get(name) === 1) throw new CompileError(`the superclass chain of ${name} is a cycle`, c.source, c.pos.line, c.pos.column);
    state.set(name, 1);
    if (c.superclass !== null) visit(c.superclass);
    state.set(name, 2);
    order.push(name);
  };
  for (const name of classes.keys()) visit(name);
  const env: CompileEnv = { classes, globals };
  for (const c of classes.values()) {
    if (c.kind !== 'bytes') continue;
    const n = allInstVarCount(env, c.name);
    if (n > 0) throw new CompileError(`${c.name} has kind #bytes but ${n} named instance variable${n === 1 ? '' : 's'} (bytes classes have none)`, c.source, c.pos.line, c.pos.column);
  }
  for (const c of classes.values()) {
    const seen = new Set<string>();
    for (let s: string | null = c.name; s !== null; s = classes.get(s)!.superclass) {
      for (const v of classes.get(s)!.instVars) {
        if (seen.has(v)) throw new CompileError(`instance variable '${v}' of ${c.name} is declared twice in its class chain`, c.source, c.pos.line, c.pos.column);
        seen.add(v);
      }
    }
  }

  // methods
  const specs = new Map<string, ClassSpec>();
  for (const name of order) {
    const c = classes.get(name)!;
    specs.set(name, { name, superclass: c.superclass, instVars: [...c.instVars], kind: c.kind, methods: [], classMethods: [] });
  }
  for (const { chunk: c, source } of chunks) {
    if (c.t !== 'method') continue;
    const m = c.method;
    const spec = specs.get(m.className);
    if (!spec) throw new CompileError(`method for undefined class ${m.className}`, source, m.pos.line, m.pos.column);
    const list: MethodSpec[] = m.classSide ? spec.classMethods : spec.methods;
    if (list.some((x) => x.selector === m.selector)) throw new CompileError(`${m.className}${m.classSide ? ' class' : ''}>>${m.selector} is defined twice`, source, m.pos.line, m.pos.column);
    list.push(compileMethod(m, source, env));
  }

  const ec = specs.get(entry.className);
  const em = ec?.classMethods.find((x) => x.selector === entry.selector);
  if (!ec) throw new CompileError(`entry class ${entry.className} is not defined`, '<entry>', 0, 0);
  if (!em) throw new CompileError(`entry method ${entry.className} class>>${entry.selector} is not defined`, '<entry>', 0, 0);
  if (em.numArgs !== 1) throw new CompileError(`entry method ${entry.className} class>>${entry.selector} takes ${em.numArgs} arguments, not 1 (the size)`, '<entry>', 0, 0);

  return { classes: order.map((n) => specs.get(n)!), globals: globalList, entryClass: entry.className, entrySelector: entry.selector };
}

function allInstVarCount(env: CompileEnv, name: string): number {
  let n = 0;
  for (let c = env.classes.get(name); c; c = c.superclass === null ? undefined : env.classes.get(c.superclass)) n += c.instVars.length;
  return n;
}
