/**
 * Lexer for the VM's Smalltalk-like source language (issue 15; the language is documented at
 * the top of parser.ts).
 *
 * Contract
 * - `lex(source)` turns one source text into tokens, each with its 1-based line and column and
 *   its start/end offsets (the parser uses adjacency for negative literals `-3`, and for
 *   keyword symbols inside literal arrays). Comments ("...") and white space are skipped.
 * - `!` is its own token (the chunk terminator), never part of a binary selector.
 * - Any character the language does not know, an unterminated string or comment, a float or a
 *   malformed number is a CompileError naming the source, the line, the column and the problem.
 * - Pure: no state between calls.
 */
import type { NamedSource } from './index';

export class CompileError extends Error {
  constructor(
    /** what went wrong, without the location */
    readonly problem: string,
    readonly sourceName: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(line > 0 ? `${sourceName}:${line}:${column}: ${problem}` : `${sourceName}: ${problem}`);
    this.name = 'CompileError';
  }
}

export type TokenKind =
  | 'ident' // foo, Foo
  | 'keyword' // foo:
  | 'binary' // + - * / \\ < > = ~ @ % & | , ? and combinations
  | 'int' // 12, 16r1F (value)
  | 'char' // $a (value = code point)
  | 'string' // 'it''s' (text)
  | 'symbol' // #foo #at:put: #+ #'a b' (text)
  | 'litArray' // #(
  | 'assign' // :=
  | 'colon' // : (block parameters)
  | 'caret' // ^
  | 'lparen' | 'rparen' | 'lbracket' | 'rbracket'
  | 'period' | 'semicolon'
  | 'bang' // ! (chunk terminator)
  | 'eof';

export interface Token {
  kind: TokenKind;
  /** identifier / keyword / binary / string / symbol text */
  text: string;
  /** int or char value */
  value: number;
  line: number;
  column: number;
  start: number;
  end: number;
}

const BINARY_CHARS = '+-*/\\<>=~@%&|,?';
const isDigit = (c: string): boolean => c >= '0' && c <= '9';
const isLetter = (c: string): boolean => (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c === '_';
const isBinary = (c: string): boolean => c !== '' && BINARY_CHARS.includes(c);

export function lex(src: NamedSource): Token[] {
  const s = src.text;
  const tokens: Token[] = [];
  let i = 0;
  let line = 1;
  let lineStart = 0;
  const err = (msg: string, at: number): never => {
    // recompute line/column of `at` (errors are rare)
    let l = 1;
    let ls = 0;
    for (let k = 0; k < at; k++) if (s[k] === '\n') { l++; ls = k + 1; }
    throw new CompileError(msg, src.name, l, at - ls + 1);
  };
  const ch = (k: number): string => (k < s.length ? s[k]! : '');
  const push = (kind: TokenKind, start: number, text = '', value = 0): void => {
    tokens.push({ kind, text, value, line, column: start - lineStart + 1, start, end: i });
  };
  const readString = (start: number): string => {
    // at s[i] === "'"
    let out = '';
    i++;
    for (;;) {
      if (i >= s.length) err('unterminated string literal', start);
      const c = s[i]!;
      if (c === "'") {
        if (ch(i + 1) === "'") { out += "'"; i += 2; continue; }
        i++;
        return out;
      }
      if (c === '\n') { line++; lineStart = i + 1; }
      out += c;
      i++;
    }
  };
  while (i < s.length) {
    const c = s[i]!;
    if (c === '\n') { line++; i++; lineStart = i; continue; }
    if (c === ' ' || c === '\t' || c === '\r' || c === '\f') { i++; continue; }
    const start = i;
    if (c === '"') {
      i++;
      while (i < s.length && s[i] !== '"') {
        if (s[i] === '\n') { line++; lineStart = i + 1; }
        i++;
      }
      if (i >= s.length) err('unterminated comment', start);
      i++;
      continue;
    }
    if (isLetter(c)) {
      while (isLetter(ch(i)) || isDigit(ch(i))) i++;
      if (ch(i) === ':' && ch(i + 1) !== '=') {
        i++;
        push('keyword', start, s.slice(start, i));
      } else push('ident', start, s.slice(start, i));
      continue;
    }
    if (isDigit(c)) {
      while (isDigit(ch(i))) i++;
      let value: number;
      if (ch(i) === 'r') {
        const radix = Number(s.slice(start, i));
        if (radix < 2 || radix > 36) err(`radix ${radix} is not in 2..36`, start);
        i++;
        const ds = i;
        while (/[0-9A-Z]/.test(ch(i))) i++;
        const digits = s.slice(ds, i);
        if (digits === '' || [...digits].some((d) => parseInt(d, 36) >= radix)) err(`malformed ${radix}r number '${s.slice(start, i + 1)}'`, start);
        value = parseInt(digits, radix);
      } else value = Number(s.slice(start, i));
      if (ch(i) === '.' && isDigit(ch(i + 1))) err('floats are not supported (SmallIntegers only)', start);
      if ((ch(i) === 'e' && isDigit(ch(i + 1))) || isLetter(ch(i))) err(`malformed number '${s.slice(start, i + 1)}'`, start);
      push('int', start, s.slice(start, i), value);
      continue;
    }
    if (c === '$') {
      if (i + 1 >= s.length) err('$ at the end of the source (a character literal needs a character)', start);
      const code = s.codePointAt(i + 1)!;
      i += code > 0xffff ? 3 : 2;
      if (code === 10) { line++; lineStart = i; }
      push('char', start, String.fromCodePoint(code), code);
      continue;
    }
    if (c === "'") {
      const startLine = line;
      const startCol = start - lineStart + 1;
      const text = readString(start);
      tokens.push({ kind: 'string', text, value: 0, line: startLine, column: startCol, start, end: i });
      continue;
    }
    if (c === '#') {
      const n = ch(i + 1);
      if (n === '(') { i += 2; push('litArray', start); continue; }
      if (isLetter(n)) {
        i++;
        // #foo #foo: #at:put: (identifier characters and colons)
        while (isLetter(ch(i)) || isDigit(ch(i)) || (ch(i) === ':' && ch(i + 1) !== '=')) i++;
        push('symbol', start, s.slice(start + 1, i));
        continue;
      }
      if (isBinary(n)) {
        i++;
        while (isBinary(ch(i))) i++;
        push('symbol', start, s.slice(start + 1, i));
        continue;
      }
      if (n === "'") {
        i++;
        const startCol = start - lineStart + 1;
        const startLine = line;
        const text = readString(start);
        tokens.push({ kind: 'symbol', text, value: 0, line: startLine, column: startCol, start, end: i });
        continue;
      }
      err(`'#' must start a symbol (#foo, #at:put:, #+, #'text') or a literal array #( )`, start);
    }
    if (c === ':') {
      if (ch(i + 1) === '=') { i += 2; push('assign', start, ':='); continue; }
      i++;
      push('colon', start, ':');
      continue;
    }
    if (isBinary(c)) {
      while (isBinary(ch(i))) {
        // `x--1`-like runs: a '-' directly before a digit after another binary char starts a negative literal
        if (i > start && ch(i) === '-' && isDigit(ch(i + 1))) break;
        i++;
      }
      push('binary', start, s.slice(start, i));
      continue;
    }
    const single: Record<string, TokenKind> = {
      '^': 'caret', '(': 'lparen', ')': 'rparen', '[': 'lbracket', ']': 'rbracket', '.': 'period', ';': 'semicolon', '!': 'bang',
    };
    const kind = single[c];
    if (kind) { i++; push(kind, start, c); continue; }
    err(`unexpected character '${c}' (code ${c.codePointAt(0)})`, start);
  }
  push('eof', i);
  return tokens;
}
