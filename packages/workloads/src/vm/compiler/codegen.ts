/**
 * Code generator: a parsed method (parser.ts) -> a MethodSpec of Squeak's classic bytecodes
 * (format.ts BC), as Squeak's compiler would emit them.
 *
 * Contract
 * - `compileMethod(node, sourceName, env)` resolves every name (temporaries and arguments of the
 *   method and of its inlined blocks, instance variables of the class chain, the pseudo-variables,
 *   globals = the class names and declared globals), inlines the control-flow selectors listed in
 *   parser.ts into jumps, and encodes pushes, stores, sends and jumps in their shortest form
 *   (short forms when the index fits, extended forms otherwise). Literals are in order of first
 *   use, equal literals shared; a method with super sends gets its class's Association appended
 *   as its LAST literal (BC.superSend).
 * - maxStack is computed by walking the emitted bytecodes along every path (`stackDepths`), which
 *   also checks that every jump lands on an instruction and the depth agrees where paths meet.
 * - Every refusal is a CompileError naming the source, line, column, the method and the problem.
 * - `disassemble(bytes)` prints bytecodes one per line (tests and debugging).
 */
import { BC, LARGE_FRAME, SPECIAL_SELECTORS, fitsSmallInt, type LiteralSpec, type MethodSpec } from '../format';
import { CompileError } from './lexer';
import type { Block, Expr, LitValue, Message, MethodNode, Pos, Stmt } from './parser';

export interface ClassInfo {
  name: string;
  superclass: string | null;
  /** own instance variables */
  instVars: string[];
  kind: 'pointers' | 'indexable' | 'bytes';
}

export interface CompileEnv {
  classes: Map<string, ClassInfo>;
  globals: Set<string>;
}

/** Limits of the encoding: 6-bit indices in the extended push/store bytes. */
export const MAX_LITERALS = 64;
export const MAX_TEMPS = 64;

const PSEUDO = new Set(['self', 'super', 'nil', 'true', 'false', 'thisContext']);

/** All instance variable names of a class, inherited first. */
export function allInstVars(env: CompileEnv, className: string): string[] {
  const chain: ClassInfo[] = [];
  for (let c = env.classes.get(className); c; c = c.superclass === null ? undefined : env.classes.get(c.superclass)) chain.unshift(c);
  return chain.flatMap((c) => c.instVars);
}

type Var = { kind: 'temp'; index: number; writable: boolean } | { kind: 'inst'; index: number } | { kind: 'global'; name: string; isClass: boolean };

export function compileMethod(node: MethodNode, sourceName: string, env: CompileEnv): MethodSpec {
  return new MethodCompiler(node, sourceName, env).compile();
}

class MethodCompiler {
  private readonly literals: LiteralSpec[] = [];
  private readonly litKeys = new Map<string, number>();
  private readonly scopes: Map<string, Var>[] = [];
  private numTemps = 0;
  private readonly instVars: string[];
  private usesSuper = false;
  private readonly label: string;

  constructor(
    private readonly node: MethodNode,
    private readonly sourceName: string,
    private readonly env: CompileEnv,
  ) {
    // class side: the receiver is a class, whose layout is Class's (every metaclass chain ends in Class)
    this.instVars = node.classSide ? (env.classes.has('Class') ? allInstVars(env, 'Class') : []) : allInstVars(env, node.className);
    this.label = `${node.className}${node.classSide ? ' class' : ''}>>${node.selector}`;
  }

  private fail(problem: string, pos: Pos): never {
    throw new CompileError(`${problem} (in ${this.label})`, this.sourceName, pos.line, pos.column);
  }

  compile(): MethodSpec {
    const n = this.node;
    const scope = new Map<string, Var>();
    this.scopes.push(scope);
    for (const p of n.params) this.declare(p.name, p.pos, false);
    for (const t of n.temps) this.declare(t.name, t.pos, true);
    const code = this.statements(n.body, false);
    if (n.body.length === 0 || n.body[n.body.length - 1]!.t !== 'return') code.push(BC.returnSelf);
    if (this.usesSuper) this.literals.push({ kind: 'global', name: n.className });
    if (this.literals.length > MAX_LITERALS) this.fail(`too many literals: ${this.literals.length} (at most ${MAX_LITERALS})`, n.pos);
    if (this.numTemps > MAX_TEMPS) this.fail(`too many temporaries: ${this.numTemps} arguments and temporaries (at most ${MAX_TEMPS})`, n.pos);
    const bytecodes = Uint8Array.from(code);
    const maxStack = maxDepth(stackDepths(bytecodes, this.literals.length));
    if (this.numTemps + maxStack > LARGE_FRAME) this.fail(`the frame needs ${this.numTemps + maxStack} slots (temporaries + stack), more than LARGE_FRAME ${LARGE_FRAME}`, n.pos);
    return { selector: n.selector, numArgs: n.params.length, numTemps: this.numTemps, primitive: n.primitive, literals: this.literals, bytecodes, maxStack };
  }

  // ------------------------------------------------------------ names

  private declare(name: string, pos: Pos, writable: boolean): number {
    if (PSEUDO.has(name)) this.fail(`'${name}' is a pseudo-variable and cannot be declared`, pos);
    for (const s of this.scopes) if (s.has(name)) this.fail(`'${name}' is already declared`, pos);
    if (this.instVars.includes(name)) this.fail(`'${name}' shadows an instance variable`, pos);
    const index = this.numTemps++;
    this.scopes[this.scopes.length - 1]!.set(name, { kind: 'temp', index, writable });
    return index;
  }

  private hidden(): number {
    return this.numTemps++;
  }

  private lookup(name: string): Var | undefined {
    for (let k = this.scopes.length - 1; k >= 0; k--) {
      const v = this.scopes[k]!.get(name);
      if (v) return v;
    }
    const iv = this.instVars.lastIndexOf(name);
    if (iv >= 0) return { kind: 'inst', index: iv };
    if (this.env.classes.has(name)) return { kind: 'global', name, isClass: true };
    if (this.env.globals.has(name)) return { kind: 'global', name, isClass: false };
    return undefined;
  }

  // ------------------------------------------------------------ literals

  private lit(spec: LiteralSpec): number {
    const key = JSON.stringify(spec);
    let k = this.litKeys.get(key);
    if (k === undefined) {
      k = this.literals.length;
      this.literals.push(spec);
      this.litKeys.set(key, k);
    }
    return k;
  }

  private litSpec(v: LitValue, pos: Pos): LiteralSpec {
    switch (v.t) {
      case 'int':
        if (!fitsSmallInt(v.value)) this.fail(`integer literal ${v.value} is outside the SmallInteger range`, pos);
        return { kind: 'int', value: v.value };
      case 'char':
        return { kind: 'char', code: v.code };
      case 'string':
        for (const c of v.value) if (c.codePointAt(0)! > 255) this.fail(`string literal character '${c}' is outside 0..255 (strings are bytes)`, pos);
        return { kind: 'string', value: v.value };
      case 'symbol':
        return { kind: 'symbol', name: v.name };
      case 'array':
        return { kind: 'array', elements: v.elements.map((e) => this.litSpec(e, pos)) };
    }
  }

  // ------------------------------------------------------------ pushes and stores

  private pushLiteral(v: LitValue, pos: Pos): number[] {
    if (v.t === 'int' && v.value >= -1 && v.value <= 2) return [BC.pushZero + v.value];
    const k = this.lit(this.litSpec(v, pos));
    return k < 32 ? [BC.pushLitConst + k] : [BC.extendedPush, (2 << 6) | k];
  }

  private pushVar(name: string, pos: Pos): number[] {
    switch (name) {
      case 'self':
      case 'super':
        return [BC.pushSelf];
      case 'nil':
        return [BC.pushNil];
      case 'true':
        return [BC.pushTrue];
      case 'false':
        return [BC.pushFalse];
    }
    const v = this.lookup(name);
    if (!v) return this.fail(`unknown variable '${name}' (not a temporary, argument, instance variable, class or global)`, pos);
    if (v.kind === 'temp') return v.index < 16 ? [BC.pushTemp + v.index] : [BC.extendedPush, (1 << 6) | v.index];
    if (v.kind === 'inst') return v.index < 16 ? [BC.pushRecvVar + v.index] : [BC.extendedPush, v.index];
    const k = this.lit({ kind: 'global', name: v.name });
    return k < 32 ? [BC.pushLitVar + k] : [BC.extendedPush, (3 << 6) | k];
  }

  private store(name: string, pos: Pos, pop: boolean): number[] {
    if (PSEUDO.has(name)) this.fail(`cannot assign to the pseudo-variable '${name}'`, pos);
    const v = this.lookup(name);
    if (!v) return this.fail(`assignment to undeclared variable '${name}'`, pos);
    let type: number;
    let index: number;
    if (v.kind === 'temp') {
      if (!v.writable) this.fail(`cannot assign to the argument '${name}'`, pos);
      if (pop && v.index < 8) return [BC.popStoreTemp + v.index];
      type = 1;
      index = v.index;
    } else if (v.kind === 'inst') {
      if (pop && v.index < 8) return [BC.popStoreRecvVar + v.index];
      type = 0;
      index = v.index;
    } else {
      if (v.isClass) this.fail(`cannot assign to the class '${name}'`, pos);
      type = 3;
      index = this.lit({ kind: 'global', name: v.name });
    }
    return [pop ? BC.extendedPopStore : BC.extendedStore, (type << 6) | index];
  }

  private pushTemp(index: number): number[] {
    return index < 16 ? [BC.pushTemp + index] : [BC.extendedPush, (1 << 6) | index];
  }

  private popTemp(index: number): number[] {
    return index < 8 ? [BC.popStoreTemp + index] : [BC.extendedPopStore, (1 << 6) | index];
  }

  // ------------------------------------------------------------ sends

  private send(selector: string, nargs: number, isSuper: boolean, pos: Pos): number[] {
    if (isSuper) {
      if (this.node.classSide) this.fail('super sends are not supported in class-side methods', pos);
      const info = this.env.classes.get(this.node.className);
      if (!info || info.superclass === null) this.fail(`super send in ${this.node.className}, which has no superclass`, pos);
      this.usesSuper = true;
      const k = this.lit({ kind: 'symbol', name: selector });
      if (k >= 32 || nargs >= 8) this.fail(`super send of #${selector}: selector literal ${k} or ${nargs} arguments do not fit the extended send byte`, pos);
      return [BC.superSend, (nargs << 5) | k];
    }
    const special = SPECIAL_SELECTORS.findIndex(([s, a]) => s === selector && a === nargs);
    if (special >= 0) return [BC.sendSpecial + special];
    const k = this.lit({ kind: 'symbol', name: selector });
    if (k < 16 && nargs <= 2) return [(nargs === 0 ? BC.send0 : nargs === 1 ? BC.send1 : BC.send2) + k];
    if (k < 32 && nargs < 8) return [BC.singleExtendedSend, (nargs << 5) | k];
    if (nargs > 255) this.fail(`too many arguments (${nargs})`, pos);
    return [BC.doubleExtendedSend, nargs, k];
  }

  // ------------------------------------------------------------ jumps

  private jump(n: number, pos: Pos): number[] {
    if (n === 0) return [];
    if (n <= 8) return [BC.shortJump + n - 1];
    if (n > 1023) this.fail(`method too large: a forward jump of ${n} bytes (at most 1023)`, pos);
    return [BC.longJump + 4 + (n >> 8), n & 0xff];
  }

  /** a jump back to the start of `n` bytes that end with this 2-byte jump */
  private jumpBack(n: number, pos: Pos): number[] {
    const disp = -n;
    if (disp < -1024) this.fail(`method too large: a backward jump of ${n} bytes (at most 1024)`, pos);
    const hi = Math.floor(disp / 256);
    return [BC.longJump + 4 + hi, disp - hi * 256];
  }

  private jumpFalse(n: number, pos: Pos): number[] {
    if (n >= 1 && n <= 8) return [BC.shortJumpIfFalse + n - 1];
    if (n > 1023) this.fail(`method too large: a conditional jump of ${n} bytes (at most 1023)`, pos);
    return [BC.longJumpIfFalse + (n >> 8), n & 0xff];
  }

  private jumpTrue(n: number, pos: Pos): number[] {
    if (n > 1023) this.fail(`method too large: a conditional jump of ${n} bytes (at most 1023)`, pos);
    return [BC.longJumpIfTrue + (n >> 8), n & 0xff];
  }

  // ------------------------------------------------------------ statements and expressions

  private statements(stmts: Stmt[], forValue: boolean): number[] {
    const out: number[] = [];
    if (stmts.length === 0) return forValue ? [BC.pushNil] : [];
    for (let k = 0; k < stmts.length; k++) {
      const s = stmts[k]!;
      if (s.t === 'return') out.push(...this.ret(s.value));
      else out.push(...this.expr(s.value, forValue && k === stmts.length - 1));
    }
    return out;
  }

  private ret(e: Expr): number[] {
    if (e.t === 'var') {
      if (e.name === 'self' || e.name === 'super') return [BC.returnSelf];
      if (e.name === 'true') return [BC.returnTrue];
      if (e.name === 'false') return [BC.returnFalse];
      if (e.name === 'nil') return [BC.returnNil];
    }
    return [...this.expr(e, true), BC.returnTop];
  }

  private expr(e: Expr, forValue: boolean): number[] {
    switch (e.t) {
      case 'lit':
        // a literal for effect emits nothing and takes no literal slot (as Squeak)
        if (!forValue) this.litSpec(e.value, e.pos);
        return forValue ? this.pushLiteral(e.value, e.pos) : [];
      case 'var':
        if (!forValue && !PSEUDO.has(e.name) && !this.lookup(e.name)) this.pushVar(e.name, e.pos); // the unknown-variable error
        return forValue ? this.pushVar(e.name, e.pos) : [];
      case 'assign':
        return [...this.expr(e.value, true), ...this.store(e.name, e.pos, !forValue)];
      case 'block':
        return this.fail('blocks are only inlined (ifTrue: ifFalse: and: or: whileTrue: whileFalse: to:do: to:by:do: timesRepeat: with literal blocks); a block cannot be a value here', e.pos);
      case 'cascade': {
        if (e.receiver.t === 'var' && e.receiver.name === 'super') this.fail('a cascade to super is not supported', e.pos);
        const out = this.expr(e.receiver, true);
        e.msgs.forEach((m, k) => {
          const last = k === e.msgs.length - 1;
          if (!last) out.push(BC.dup);
          for (const a of m.args) out.push(...this.expr(a, true));
          out.push(...this.send(m.selector, m.args.length, false, m.pos));
          if (!last) out.push(BC.pop);
        });
        if (!forValue) out.push(BC.pop);
        return out;
      }
      case 'send': {
        const inlined = this.inline(e.receiver, e.msg, forValue);
        if (inlined) return inlined;
        const isSuper = e.receiver.t === 'var' && e.receiver.name === 'super';
        const out = this.expr(e.receiver, true);
        for (const a of e.msg.args) out.push(...this.expr(a, true));
        out.push(...this.send(e.msg.selector, e.msg.args.length, isSuper, e.msg.pos));
        if (!forValue) out.push(BC.pop);
        return out;
      }
    }
  }

  /** a literal block's statements, its arguments and temporaries declared as method temporaries */
  private block(b: Block, forValue: boolean, expectParams: number, what: string): { code: number[]; params: number[]; returns: boolean } {
    if (b.params.length !== expectParams) this.fail(`the block of ${what} takes ${expectParams} argument${expectParams === 1 ? '' : 's'}, not ${b.params.length}`, b.pos);
    this.scopes.push(new Map());
    const params = b.params.map((p) => this.declare(p.name, p.pos, false));
    for (const t of b.temps) this.declare(t.name, t.pos, true);
    const code = this.statements(b.body, forValue);
    this.scopes.pop();
    const returns = b.body.length > 0 && b.body[b.body.length - 1]!.t === 'return';
    return { code, params, returns };
  }

  /** Squeak's inlined selectors; null when the message is not inlinable (a normal send). */
  private inline(receiver: Expr, m: Message, forValue: boolean): number[] | null {
    const [a0, a1, a2] = m.args;
    const pos = m.pos;
    switch (m.selector) {
      case 'ifTrue:':
      case 'ifFalse:':
        if (!a0 || a0.t !== 'block') return null;
        return m.selector === 'ifTrue:' ? this.ifThen(receiver, a0, null, forValue, m) : this.ifThen(receiver, null, a0, forValue, m);
      case 'ifTrue:ifFalse:':
      case 'ifFalse:ifTrue:':
        if (!a0 || !a1 || a0.t !== 'block' || a1.t !== 'block') return null;
        return m.selector === 'ifTrue:ifFalse:' ? this.ifThen(receiver, a0, a1, forValue, m) : this.ifThen(receiver, a1, a0, forValue, m);
      case 'and:':
      case 'or:': {
        if (!a0 || a0.t !== 'block') return null;
        const cond = this.expr(receiver, true);
        const b = this.block(a0, true, 0, m.selector).code;
        let out: number[];
        if (m.selector === 'and:') {
          // cond; jumpFalse L1; b; jump L2; L1: pushFalse; L2:
          const j = this.jump(1, pos);
          out = [...cond, ...this.jumpFalse(b.length + j.length, pos), ...b, ...j, BC.pushFalse];
        } else {
          // cond; jumpFalse L1; pushTrue; jump L2; L1: b; L2:
          const j = this.jump(b.length, pos);
          out = [...cond, ...this.jumpFalse(1 + j.length, pos), BC.pushTrue, ...j, ...b];
        }
        if (!forValue) out.push(BC.pop);
        return out;
      }
      case 'whileTrue:':
      case 'whileFalse:':
      case 'whileTrue':
      case 'whileFalse': {
        if (receiver.t !== 'block' || (a0 !== undefined && a0.t !== 'block')) return null;
        const cond = this.block(receiver, true, 0, m.selector).code;
        const body = a0 ? this.block(a0, false, 0, m.selector).code : [];
        const exitLen = body.length + 2; // the body, then the 2-byte jump back
        const exit = m.selector.startsWith('whileTrue') ? this.jumpFalse(exitLen, pos) : this.jumpTrue(exitLen, pos);
        const loop = [...cond, ...exit, ...body];
        const out = [...loop, ...this.jumpBack(loop.length + 2, pos)];
        if (forValue) out.push(BC.pushNil);
        return out;
      }
      case 'timesRepeat:': {
        if (!a0 || a0.t !== 'block') return null;
        const count = this.hidden();
        const init = [...this.expr(receiver, true), ...this.popTemp(count)];
        const body = this.block(a0, false, 0, m.selector).code;
        // L1: count > 0 ifTrue: [body. count := count - 1. jump L1]
        const step = [...this.pushTemp(count), BC.pushOne, this.special('-'), ...this.popTemp(count)];
        const test = [...this.pushTemp(count), BC.pushZero, this.special('>')];
        const loop = [...test, ...this.jumpFalse(body.length + step.length + 2, pos), ...body, ...step];
        const out = [...init, ...loop, ...this.jumpBack(loop.length + 2, pos)];
        if (forValue) out.push(BC.pushNil);
        return out;
      }
      case 'to:do:':
      case 'to:by:do:': {
        const blk = m.selector === 'to:do:' ? a1 : a2;
        if (!blk || blk.t !== 'block') return null;
        let step = 1;
        if (m.selector === 'to:by:do:') {
          if (!a1 || a1.t !== 'lit' || a1.value.t !== 'int') this.fail('the step of to:by:do: must be a literal integer', a1?.pos ?? pos);
          step = a1.value.value;
          if (step === 0) this.fail('the step of to:by:do: must not be 0', a1.pos);
        }
        // start, then the limit (a hidden temporary unless it is a literal integer), then the loop
        const start = this.expr(receiver, true);
        const loop = this.loopVar(blk, m.selector, start, a0!);
        return this.toDo(loop.init, loop.index, loop.limitPush, loop.body, step, forValue, pos);
      }
      default:
        return null;
    }
  }

  /** Declare the to:do: block's argument before its body is compiled; evaluate the limit once. */
  private loopVar(blk: Block, what: string, start: number[], limitExpr: Expr): { init: number[]; index: number; limitPush: number[]; body: number[] } {
    if (blk.params.length !== 1) this.fail(`the block of ${what} takes 1 argument, not ${blk.params.length}`, blk.pos);
    let limitPush: number[];
    let limitInit: number[] = [];
    if (limitExpr.t === 'lit' && limitExpr.value.t === 'int') limitPush = this.pushLiteral(limitExpr.value, limitExpr.pos);
    else {
      limitInit = this.expr(limitExpr, true);
      const t = this.hidden();
      limitInit.push(...this.popTemp(t));
      limitPush = this.pushTemp(t);
    }
    this.scopes.push(new Map());
    const index = this.declare(blk.params[0]!.name, blk.params[0]!.pos, false);
    for (const t of blk.temps) this.declare(t.name, t.pos, true);
    const body = this.statements(blk.body, false);
    this.scopes.pop();
    return { init: [...start, ...this.popTemp(index), ...limitInit], index, limitPush, body };
  }

  private toDo(init: number[], i: number, limitPush: number[], body: number[], step: number, forValue: boolean, pos: Pos): number[] {
    // init; L1: i <= limit (>= for a negative step) ifTrue: [body. i := i + step. jump L1]
    const test = [...this.pushTemp(i), ...limitPush, this.special(step > 0 ? '<=' : '>=')];
    const stepCode = [...this.pushTemp(i), ...this.pushLiteral({ t: 'int', value: step }, pos), this.special('+'), ...this.popTemp(i)];
    const loop = [...test, ...this.jumpFalse(body.length + stepCode.length + 2, pos), ...body, ...stepCode];
    const out = [...init, ...loop, ...this.jumpBack(loop.length + 2, pos)];
    if (forValue) out.push(BC.pushNil);
    return out;
  }

  private special(selector: string): number {
    return BC.sendSpecial + SPECIAL_SELECTORS.findIndex(([s]) => s === selector);
  }

  private ifThen(receiver: Expr, t: Block | null, f: Block | null, forValue: boolean, m: Message): number[] {
    const pos = m.pos;
    const cond = this.expr(receiver, true);
    const tb = t ? this.block(t, forValue, 0, m.selector) : { code: forValue ? [BC.pushNil] : [], returns: false };
    const fb = f ? this.block(f, forValue, 0, m.selector) : { code: forValue ? [BC.pushNil] : [], returns: false };
    const T = tb.code;
    const F = fb.code;
    if (F.length === 0 && T.length === 0) return [...cond, BC.pop];
    if (F.length === 0) return [...cond, ...this.jumpFalse(T.length, pos), ...T];
    if (T.length === 0) return [...cond, ...this.jumpTrue(F.length, pos), ...F];
    // cond; jumpFalse L1; T; jump L2; L1: F; L2:   (no jump after a T that returns)
    const j = tb.returns ? [] : this.jump(F.length, pos);
    return [...cond, ...this.jumpFalse(T.length + j.length, pos), ...T, ...j, ...F];
  }
}

// ------------------------------------------------------------ bytecode walking

/** Length in bytes of the bytecode at `b`. */
export function bytecodeLength(b: number): number {
  if (b === BC.extendedPush || b === BC.extendedStore || b === BC.extendedPopStore || b === BC.singleExtendedSend || b === BC.superSend) return 2;
  if (b === BC.doubleExtendedSend) return 3;
  if (b >= BC.longJump && b <= 0xaf) return 2;
  return 1;
}

/**
 * Stack depth (beyond args + temps) before each reachable bytecode, -1 where unreachable.
 * Throws an Error (a compiler bug, not a user error) on a jump into the middle of a bytecode,
 * outside the method, a depth that differs where paths meet, or a pop of an empty stack.
 */
export function stackDepths(code: Uint8Array, numLiterals: number): Int32Array {
  const depth = new Int32Array(code.length).fill(-1);
  const starts = new Uint8Array(code.length);
  for (let pc = 0; pc < code.length; pc += bytecodeLength(code[pc]!)) starts[pc] = 1;
  const work: number[] = [0];
  const flow = (to: number, d: number, from: number): void => {
    if (to < 0 || to >= code.length || !starts[to]) throw new Error(`internal: bytecode at ${from} flows to ${to}, not an instruction`);
    if (d < 0) throw new Error(`internal: stack underflow at ${from}`);
    if (depth[to] === -1) { depth[to] = d; work.push(to); }
    else if (depth[to] !== d) throw new Error(`internal: stack depth ${depth[to]} and ${d} meet at ${to}`);
  };
  if (code.length > 0) depth[0] = 0;
  while (work.length > 0) {
    const pc = work.pop()!;
    const d = depth[pc]!;
    const b = code[pc]!;
    const next = pc + bytecodeLength(b);
    if (b <= 0x5f) flow(next, d + 1, pc); // pushes
    else if (b <= 0x6f) flow(next, d - 1, pc); // pop-stores
    else if (b <= 0x77) flow(next, d + 1, pc); // constants
    else if (b <= 0x7b) continue; // returns of self/true/false/nil
    else if (b === BC.returnTop) { if (d < 1) throw new Error(`internal: returnTop on an empty stack at ${pc}`); }
    else if (b === BC.extendedPush) {
      if (code[pc + 1]! >> 6 === 2 && (code[pc + 1]! & 63) >= numLiterals) throw new Error(`internal: literal ${code[pc + 1]! & 63} out of range at ${pc}`);
      flow(next, d + 1, pc);
    } else if (b === BC.extendedStore) flow(next, d, pc);
    else if (b === BC.extendedPopStore) flow(next, d - 1, pc);
    else if (b === BC.singleExtendedSend || b === BC.superSend) flow(next, d - (code[pc + 1]! >> 5), pc);
    else if (b === BC.doubleExtendedSend) flow(next, d - code[pc + 1]!, pc);
    else if (b === BC.pop) flow(next, d - 1, pc);
    else if (b === BC.dup) flow(next, d + 1, pc);
    else if (b >= BC.shortJump && b <= 0x97) flow(next + (b - BC.shortJump) + 1, d, pc);
    else if (b >= BC.shortJumpIfFalse && b <= 0x9f) { flow(next, d - 1, pc); flow(next + (b - BC.shortJumpIfFalse) + 1, d - 1, pc); }
    else if (b >= BC.longJump && b <= 0xa7) flow(next + (b - BC.longJump - 4) * 256 + code[pc + 1]!, d, pc);
    else if (b >= BC.longJumpIfTrue && b <= 0xaf) { flow(next, d - 1, pc); flow(next + (b & 3) * 256 + code[pc + 1]!, d - 1, pc); }
    else if (b >= BC.sendSpecial && b <= 0xcf) flow(next, d - SPECIAL_SELECTORS[b - BC.sendSpecial]![1], pc);
    else if (b >= BC.send0) flow(next, d - ((b - BC.send0) >> 4), pc);
    else throw new Error(`internal: unknown bytecode 0x${b.toString(16)} at ${pc}`);
  }
  return depth;
}

function maxDepth(depths: Int32Array): number {
  // every push is followed by another bytecode (a method ends in a return), so the deepest point is a depth before some bytecode
  let m = 0;
  for (let pc = 0; pc < depths.length; pc++) if (depths[pc]! > m) m = depths[pc]!;
  return m;
}

/** One line per bytecode: `pc: hex  mnemonic`. */
export function disassemble(code: Uint8Array): string[] {
  const out: string[] = [];
  for (let pc = 0; pc < code.length; ) {
    const b = code[pc]!;
    const len = bytecodeLength(b);
    const x = code[pc + 1] ?? 0;
    const next = pc + len;
    let s: string;
    if (b <= 0x0f) s = `pushRcvr ${b}`;
    else if (b <= 0x1f) s = `pushTemp ${b - 0x10}`;
    else if (b <= 0x3f) s = `pushLit ${b - 0x20}`;
    else if (b <= 0x5f) s = `pushLitVar ${b - 0x40}`;
    else if (b <= 0x67) s = `popRcvr ${b - 0x60}`;
    else if (b <= 0x6f) s = `popTemp ${b - 0x68}`;
    else if (b <= 0x7c) s = ['pushSelf', 'pushTrue', 'pushFalse', 'pushNil', 'push -1', 'push 0', 'push 1', 'push 2', 'returnSelf', 'returnTrue', 'returnFalse', 'returnNil', 'returnTop'][b - 0x70]!;
    else if (b >= 0x80 && b <= 0x82) s = `${['extPush', 'extStore', 'extPopStore'][b - 0x80]} ${['rcvr', 'temp', 'lit', 'litVar'][x >> 6]} ${x & 63}`;
    else if (b === BC.singleExtendedSend || b === BC.superSend) s = `${b === BC.superSend ? 'superSend' : 'send'} lit ${x & 31} args ${x >> 5}`;
    else if (b === BC.doubleExtendedSend) s = `send lit ${code[pc + 2]} args ${x}`;
    else if (b === BC.pop) s = 'pop';
    else if (b === BC.dup) s = 'dup';
    else if (b >= 0x90 && b <= 0x97) s = `jump ${next + (b - 0x90) + 1}`;
    else if (b >= 0x98 && b <= 0x9f) s = `jumpFalse ${next + (b - 0x98) + 1}`;
    else if (b >= 0xa0 && b <= 0xa7) s = `jump ${next + (b - 0xa4) * 256 + x}`;
    else if (b >= 0xa8 && b <= 0xab) s = `jumpTrue ${next + (b & 3) * 256 + x}`;
    else if (b >= 0xac && b <= 0xaf) s = `jumpFalse ${next + (b & 3) * 256 + x}`;
    else if (b >= 0xb0 && b <= 0xcf) s = `send ${SPECIAL_SELECTORS[b - 0xb0]![0]}`;
    else if (b >= 0xd0) s = `send lit ${b & 15} args ${(b - 0xd0) >> 4}`;
    else s = `unknown 0x${b.toString(16)}`;
    out.push(`${pc}: ${s}`);
    pc = next;
  }
  return out;
}
