/**
 * Parser for the VM's Smalltalk-like source language (issue 15): source text -> chunks (class
 * definitions, global declarations, methods) with Smalltalk-80 method bodies as syntax trees.
 *
 * Contract: `parseSource(source)` returns the chunks of one source text in order, or throws a
 * CompileError naming the source, line, column and problem. It only checks syntax; names,
 * inlining and limits are checked by codegen.ts. Pure.
 *
 * THE LANGUAGE
 * A source is a sequence of chunks, each ended by `!` (by convention on a line of its own; `!`
 * is never part of a binary selector, so it cannot be confused with code). Three kinds:
 *
 *   Object subclass: #Token instanceVariableNames: 'kind value' kind: #pointers !
 *     A class definition. The superclass is a class name, or `nil` for the root (Object).
 *     `instanceVariableNames:` lists the class's OWN named instance variables (inherited ones
 *     come first in the object). `kind:` is optional (#pointers by default): #pointers (named
 *     slots only), #indexable (named + indexed pointer slots, `new:`), #bytes (bytes only: no
 *     named instance variables). A subclass of an #indexable or #bytes class has its kind.
 *
 *   Smalltalk global: #Counter !
 *     A global variable besides the classes (initial value nil).
 *
 *   Token >> setKind: k value: v
 *       kind := k. value := v !
 *   Token class >> kind: k value: v
 *       ^ self new setKind: k value: v !
 *     A method of the class (instance side) or of its metaclass (`class >>`, class side): the
 *     pattern (unary, binary or keyword), then the body. Class-side methods see Class's
 *     instance variables (a class object's slots); `super` sends exist on the instance side
 *     only (BC.superSend: the method's last literal is its class's Association).
 *
 * Method bodies are Smalltalk-80: temporaries `| a b |`, a `<primitive: n>` pragma before or
 * after the temporaries (before any statement), statements separated by `.`, `^` return
 * (the last statement of its sequence), `:=` assignment, unary > binary > keyword precedence,
 * cascades `;`, parentheses, literals: integers (SmallInteger range, radix `16rFF`, negative
 * `-3` when the `-` touches the digits in a literal position), characters `$a` (their code
 * point, a SmallInteger: there is no Character class), strings 'it''s', symbols #foo #at:put:
 * #+ #'any text', literal arrays #(1 -2 $a 'str' #sym sym at:put: (nested) #(nested)) (bare
 * identifiers and keywords inside are symbols; true, false and nil inside are refused), and
 * the pseudo-variables self super nil true false. No thisContext.
 *
 * Blocks `[:a :b | | t | statements]` exist ONLY where the compiler inlines them into jumps
 * (as Squeak's compiler does): the literal-block arguments of ifTrue: ifFalse: ifTrue:ifFalse:
 * ifFalse:ifTrue: and: or: (no block arguments), the receiver and argument of whileTrue:
 * whileFalse: and the receiver of whileTrue whileFalse, the last argument of to:do: and
 * to:by:do: (one block argument; by: a literal integer), the argument of timesRepeat:. Block
 * arguments and temporaries become method temporaries. A block anywhere else is a CompileError.
 * Values: an inlined if with a missing branch answers nil (as Squeak); loops answer nil.
 * The end of a method without `^` returns self.
 */
import { CompileError, lex, type Token, type TokenKind } from './lexer';
import type { NamedSource } from './index';

export interface Pos {
  line: number;
  column: number;
}

export type LitValue =
  | { t: 'int'; value: number }
  | { t: 'char'; code: number }
  | { t: 'string'; value: string }
  | { t: 'symbol'; name: string }
  | { t: 'array'; elements: LitValue[] };

export interface Block {
  t: 'block';
  params: { name: string; pos: Pos }[];
  temps: { name: string; pos: Pos }[];
  body: Stmt[];
  pos: Pos;
}

export interface Message {
  selector: string;
  args: Expr[];
  pos: Pos;
}

export type Expr =
  | { t: 'lit'; value: LitValue; pos: Pos }
  | { t: 'var'; name: string; pos: Pos }
  | { t: 'assign'; name: string; value: Expr; pos: Pos }
  | { t: 'send'; receiver: Expr; msg: Message; pos: Pos }
  | { t: 'cascade'; receiver: Expr; msgs: Message[]; pos: Pos }
  | Block;

export type Stmt = { t: 'return'; value: Expr; pos: Pos } | { t: 'expr'; value: Expr; pos: Pos };

export interface MethodNode {
  className: string;
  classSide: boolean;
  selector: string;
  params: { name: string; pos: Pos }[];
  temps: { name: string; pos: Pos }[];
  primitive: number;
  body: Stmt[];
  pos: Pos;
}

export type Chunk =
  | { t: 'class'; name: string; superclass: string | null; instVars: string[]; kind: 'pointers' | 'indexable' | 'bytes'; pos: Pos; superPos: Pos }
  | { t: 'global'; name: string; pos: Pos }
  | { t: 'method'; method: MethodNode; sourceName: string };

export function parseSource(src: NamedSource): Chunk[] {
  return new Parser(src, lex(src)).chunks();
}

class Parser {
  private i = 0;
  constructor(
    private readonly src: NamedSource,
    private readonly toks: Token[],
  ) {}

  private get tok(): Token {
    return this.toks[this.i]!;
  }
  private peek(k = 1): Token {
    return this.toks[Math.min(this.i + k, this.toks.length - 1)]!;
  }
  private pos(t: Token = this.tok): Pos {
    return { line: t.line, column: t.column };
  }
  private fail(problem: string, t: Token = this.tok): never {
    throw new CompileError(problem, this.src.name, t.line, t.column);
  }
  private describe(t: Token): string {
    return t.kind === 'eof' ? 'the end of the source' : t.kind === 'bang' ? "'!' (end of chunk)" : `'${this.src.text.slice(t.start, t.end)}'`;
  }
  private expect(kind: TokenKind, what: string, text?: string): Token {
    const t = this.tok;
    if (t.kind !== kind || (text !== undefined && t.text !== text)) this.fail(`expected ${what}, found ${this.describe(t)}`);
    this.i++;
    return t;
  }
  private atBinary(text: string): boolean {
    return this.tok.kind === 'binary' && this.tok.text === text;
  }

  chunks(): Chunk[] {
    const out: Chunk[] = [];
    while (this.tok.kind !== 'eof') {
      if (this.tok.kind === 'bang') { this.i++; continue; } // empty chunk
      out.push(this.chunk());
      if ((this.tok.kind as TokenKind) !== 'bang') this.fail(`expected '!' to end the chunk, found ${this.describe(this.tok)}`);
      this.i++;
    }
    return out;
  }

  private chunk(): Chunk {
    const t = this.tok;
    if ((t.kind === 'ident') && this.peek().kind === 'keyword' && this.peek().text === 'subclass:') return this.classDef();
    if (t.kind === 'ident' && t.text === 'Smalltalk' && this.peek().kind === 'keyword' && this.peek().text === 'global:') {
      this.i += 2;
      const name = this.expect('symbol', 'a symbol naming the global (#Name)');
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name.text)) this.fail(`global name #${name.text} is not an identifier`, name);
      return { t: 'global', name: name.text, pos: this.pos(name) };
    }
    if (t.kind === 'ident' && (this.peek().text === '>>' || (this.peek().text === 'class' && this.peek(2).text === '>>'))) return this.method();
    return this.fail(`expected a class definition (Super subclass: #Name ...), a global (Smalltalk global: #Name) or a method (Class >> selector ...), found ${this.describe(t)}`);
  }

  private classDef(): Chunk {
    const sup = this.tok;
    this.i++;
    this.expect('keyword', 'subclass:', 'subclass:');
    const name = this.expect('symbol', 'a symbol naming the class (#Name)');
    if (!/^[A-Z][A-Za-z0-9_]*$/.test(name.text)) this.fail(`class name #${name.text} must be a capitalised identifier`, name);
    this.expect('keyword', 'instanceVariableNames:', 'instanceVariableNames:');
    const iv = this.expect('string', "a string of instance variable names ('a b')");
    const instVars = iv.text.split(/\s+/).filter((s) => s !== '');
    for (const v of instVars) if (!/^[a-z_][A-Za-z0-9_]*$/.test(v)) this.fail(`instance variable name '${v}' is not a lower-case identifier`, iv);
    let kind: 'pointers' | 'indexable' | 'bytes' = 'pointers';
    if (this.tok.kind === 'keyword' && this.tok.text === 'kind:') {
      this.i++;
      const k = this.expect('symbol', 'one of #pointers #indexable #bytes');
      if (k.text !== 'pointers' && k.text !== 'indexable' && k.text !== 'bytes') this.fail(`kind: #${k.text} is not one of #pointers #indexable #bytes`, k);
      kind = k.text;
    }
    return { t: 'class', name: name.text, superclass: sup.text === 'nil' ? null : sup.text, instVars, kind, pos: this.pos(name), superPos: this.pos(sup) };
  }

  private method(): Chunk {
    const cls = this.tok;
    this.i++;
    let classSide = false;
    if (this.tok.text === 'class') { classSide = true; this.i++; }
    this.expect('binary', "'>>'", '>>');
    const pos = this.pos();
    let selector = '';
    const params: { name: string; pos: Pos }[] = [];
    const t = this.tok;
    if (t.kind === 'ident') { selector = t.text; this.i++; }
    else if (t.kind === 'binary') {
      selector = t.text;
      this.i++;
      const a = this.expect('ident', 'an argument name after the binary selector');
      params.push({ name: a.text, pos: this.pos(a) });
    } else if (t.kind === 'keyword') {
      while (this.tok.kind === 'keyword') {
        selector += this.tok.text;
        this.i++;
        const a = this.expect('ident', 'an argument name after the keyword');
        params.push({ name: a.text, pos: this.pos(a) });
      }
    } else this.fail(`expected a message pattern (unary, binary or keyword selector), found ${this.describe(t)}`);
    let primitive = 0;
    let temps: { name: string; pos: Pos }[] = [];
    let sawTemps = false;
    for (let k = 0; k < 2; k++) {
      if (this.atBinary('<') && this.peek().kind === 'keyword') {
        if (primitive !== 0) this.fail('a method has at most one <primitive: n> pragma');
        this.i++;
        this.expect('keyword', "'primitive:' (the only pragma)", 'primitive:');
        const n = this.expect('int', 'a primitive number');
        if (n.value < 1 || n.value > 127) this.fail(`primitive number ${n.value} is not in 1..127`, n);
        primitive = n.value;
        this.expect('binary', "'>' to close the pragma", '>');
      } else if (!sawTemps && (this.atBinary('|') || this.atBinary('||'))) {
        temps = this.temporaries();
        sawTemps = true;
      }
    }
    const body = this.statements('bang');
    return { t: 'method', sourceName: this.src.name, method: { className: cls.text, classSide, selector, params, temps, primitive, body, pos } };
  }

  private temporaries(): { name: string; pos: Pos }[] {
    if (this.atBinary('||')) { this.i++; return []; }
    this.expect('binary', "'|'", '|');
    const out: { name: string; pos: Pos }[] = [];
    while (this.tok.kind === 'ident') { out.push({ name: this.tok.text, pos: this.pos() }); this.i++; }
    this.expect('binary', "'|' to close the temporaries", '|');
    return out;
  }

  /** statements up to (not including) a token of kind `end` */
  private statements(end: TokenKind): Stmt[] {
    const out: Stmt[] = [];
    while (this.tok.kind !== end) {
      if (this.tok.kind === 'period') { this.i++; continue; }
      if (this.tok.kind === 'eof' || (this.tok.kind === 'bang' && end !== 'bang')) this.fail(end === 'bang' ? `expected '!' to end the chunk, found ${this.describe(this.tok)}` : `expected ']' to close the block, found ${this.describe(this.tok)}`);
      if (out.length > 0 && out[out.length - 1]!.t === 'return') this.fail('unreachable code after a ^ return');
      if (this.tok.kind === 'caret') {
        const pos = this.pos();
        this.i++;
        out.push({ t: 'return', value: this.expression(), pos });
      } else {
        const pos = this.pos();
        out.push({ t: 'expr', value: this.expression(), pos });
      }
      const k = this.tok.kind as TokenKind;
      if (k === 'eof' && end === 'bang') this.fail("expected '!' to end the chunk, found the end of the source");
      if (k !== 'period' && k !== end) this.fail(`expected '.' or the end of the statements, found ${this.describe(this.tok)}`);
    }
    return out;
  }

  private expression(): Expr {
    if (this.tok.kind === 'ident' && this.peek().kind === 'assign') {
      const name = this.tok;
      this.i += 2;
      return { t: 'assign', name: name.text, value: this.expression(), pos: this.pos(name) };
    }
    const pos = this.pos();
    const first = this.keywordSend();
    if (this.tok.kind !== 'semicolon') return first;
    if (first.t !== 'send') this.fail('a cascade (;) needs a message before it');
    const msgs = [first.msg];
    while (this.tok.kind === 'semicolon') {
      this.i++;
      msgs.push(this.cascadeMessage());
    }
    return { t: 'cascade', receiver: first.receiver, msgs, pos };
  }

  private cascadeMessage(): Message {
    const t = this.tok;
    const pos = this.pos();
    if (t.kind === 'ident') {
      this.i++;
      // a cascade part is one message here (Smalltalk-80 would send further messages to its result)
      if (this.tok.kind === 'ident' || this.tok.kind === 'binary' || this.tok.kind === 'keyword') this.fail('a cascade part is one message (use parentheses for more)');
      return { selector: t.text, args: [], pos };
    }
    if (t.kind === 'binary') {
      this.i++;
      const arg = this.unarySend();
      return { selector: t.text, args: [arg], pos };
    }
    if (t.kind === 'keyword') {
      let selector = '';
      const args: Expr[] = [];
      while (this.tok.kind === 'keyword') {
        selector += this.tok.text;
        this.i++;
        args.push(this.binarySend());
      }
      return { selector, args, pos };
    }
    return this.fail(`expected a message after ';', found ${this.describe(t)}`);
  }

  private keywordSend(): Expr {
    const pos = this.pos();
    const receiver = this.binarySend();
    if (this.tok.kind !== 'keyword') return receiver;
    const mpos = this.pos();
    let selector = '';
    const args: Expr[] = [];
    while (this.tok.kind === 'keyword') {
      selector += this.tok.text;
      this.i++;
      args.push(this.binarySend());
    }
    return { t: 'send', receiver, msg: { selector, args, pos: mpos }, pos };
  }

  private binarySend(): Expr {
    const pos = this.pos();
    let e = this.unarySend();
    while (this.tok.kind === 'binary') {
      const op = this.tok;
      this.i++;
      const arg = this.unarySend();
      e = { t: 'send', receiver: e, msg: { selector: op.text, args: [arg], pos: this.pos(op) }, pos };
    }
    return e;
  }

  private unarySend(): Expr {
    const pos = this.pos();
    let e = this.primary();
    while (this.tok.kind === 'ident') {
      e = { t: 'send', receiver: e, msg: { selector: this.tok.text, args: [], pos: this.pos() }, pos };
      this.i++;
    }
    return e;
  }

  private primary(): Expr {
    const t = this.tok;
    const pos = this.pos();
    switch (t.kind) {
      case 'ident':
        this.i++;
        if (t.text === 'thisContext') this.fail('thisContext is not supported', t);
        return { t: 'var', name: t.text, pos };
      case 'int':
      case 'char':
      case 'string':
      case 'symbol':
      case 'litArray':
        return { t: 'lit', value: this.literal(false), pos };
      case 'binary':
        if (t.text === '-' && this.peek().kind === 'int' && this.peek().start === t.end) return { t: 'lit', value: this.literal(false), pos };
        return this.fail(`expected an expression, found the binary selector ${this.describe(t)}`);
      case 'lparen': {
        this.i++;
        const e = this.expression();
        this.expect('rparen', "')'");
        return e;
      }
      case 'lbracket':
        return this.block();
      default:
        return this.fail(`expected an expression, found ${this.describe(t)}`);
    }
  }

  private block(): Block {
    const pos = this.pos();
    this.expect('lbracket', "'['");
    const params: { name: string; pos: Pos }[] = [];
    if (this.tok.kind === 'colon') {
      while (this.tok.kind === 'colon') {
        this.i++;
        const a = this.expect('ident', 'a block argument name after ":"');
        params.push({ name: a.text, pos: this.pos(a) });
      }
      if (this.atBinary('||')) {
        // `[:x || t | ...]`: the argument bar and an opening temporaries bar
        this.tok.text = '|';
      } else this.expect('binary', "'|' after the block arguments", '|');
    }
    let temps: { name: string; pos: Pos }[] = [];
    if (this.atBinary('|') || this.atBinary('||')) temps = this.temporaries();
    const body = this.statements('rbracket');
    this.expect('rbracket', "']'");
    return { t: 'block', params, temps, body, pos };
  }

  /** a literal; `inArray` allows bare identifiers, keywords and binary selectors as symbols and ( ) as nested arrays */
  private literal(inArray: boolean): LitValue {
    const t = this.tok;
    switch (t.kind) {
      case 'int':
        this.i++;
        return { t: 'int', value: t.value };
      case 'char':
        this.i++;
        return { t: 'char', code: t.value };
      case 'string':
        this.i++;
        return { t: 'string', value: t.text };
      case 'symbol':
        this.i++;
        return { t: 'symbol', name: t.text };
      case 'binary':
        if (t.text === '-' && this.peek().kind === 'int' && this.peek().start === t.end) {
          this.i += 2;
          return { t: 'int', value: -this.toks[this.i - 1]!.value };
        }
        if (inArray) { this.i++; return { t: 'symbol', name: t.text }; }
        break;
      case 'litArray':
      case 'lparen': {
        if (t.kind === 'lparen' && !inArray) break;
        this.i++;
        const elements: LitValue[] = [];
        while (this.tok.kind !== 'rparen') {
          if (this.tok.kind === 'eof' || this.tok.kind === 'bang') this.fail("unterminated literal array (expected ')')");
          elements.push(this.literal(true));
        }
        this.i++;
        return { t: 'array', elements };
      }
      case 'ident':
        if (!inArray) break;
        if (t.text === 'true' || t.text === 'false' || t.text === 'nil') this.fail(`${t.text} inside a literal array is not supported (the literal frame has no ${t.text} literal)`);
        this.i++;
        return { t: 'symbol', name: t.text };
      case 'keyword': {
        if (!inArray) break;
        let name = t.text;
        this.i++;
        while (this.tok.kind === 'keyword' && this.tok.start === this.toks[this.i - 1]!.end) { name += this.tok.text; this.i++; }
        return { t: 'symbol', name };
      }
      default:
        break;
    }
    return this.fail(`expected a literal, found ${this.describe(t)}`);
  }
}
