/**
 * concordance: the SICSA concordance of scc.md section 8. n cores each read the whole input text
 * from shared memory, split it into words and look at every word sequence (phrase) of 1..K
 * words; a core counts the phrases whose hash modulo n is its rank. Then every core's
 * (phrase, count) records go to a file server that serialises the writes into one output file.
 *
 * The file server runs on the first core (rank 0), which owns the output file in its private
 * memory: it counts its own phrases like everyone else and appends its records to the file
 * directly; then it takes the other cores' records one at a time, rank by rank (each record a
 * synchronous RCCE message, RECORD_BYTES long; a core first sends how many it has), and appends
 * each to the file. With one core nothing is serialised; from two cores on, every record that
 * is not the server's costs an RCCE round trip on top of the write, and the cores wait in line.
 *
 * The text is generated from the seed (words from a vocabulary with a skewed, Zipf-like
 * frequency) and written to shared DRAM before the timed run; the cores read it cached (it
 * never changes). Costs per byte, per phrase and per record are model values for a P54C (see
 * the constants); the loads, the count table's loads and stores, the file writes and the
 * messages are simulated. Rows {cores, timeNs, phrases, textBytes, maxPhrase, words, correct}:
 * phrases = records in the output file; correct = the file's counts equal a direct count of
 * the same text (computed again from the seed in summarize).
 */
import { z } from 'zod';
import { DUE, type SccCore, type ResolvedChip, type Row, type WorkloadDef } from '@manycore/engine';
import { chipHasCores, MAX_CORES, overLimit } from './lib/limits';
import { checkRcceChip, Rcce } from './rcce/index';
import { sharedAddrOnController } from './placement';

/** Splitting the text into words: load, classify and branch per character (model). */
export const TOKENIZE_CYCLES_PER_BYTE = 4;
/** Per phrase: combine the word hashes and test ownership (hash mod n: a 46-cycle DIV; model). */
export const PHRASE_CYCLES = 60;
/** Counting an owned phrase besides the table access: compare the words, increment (model). */
export const COUNT_CYCLES = 40;
/** Formatting one output record and the file system's bookkeeping to append it (model). */
export const RECORD_WRITE_CYCLES = 300;
/** A record on the wire: the phrase, a tab, the count, a newline, zero-padded. */
export const RECORD_BYTES = 96;
export const MAX_WORD = 9;

const Params = z.strictObject({
  cores: z.number().int().min(1).max(MAX_CORES).default(4).describe('cores (n); the first one is also the file server'),
  textBytes: z.number().int().min(64).max(4 * 1024 * 1024).default(64 * 1024).describe('size of the input text, bytes'),
  maxPhrase: z.number().int().min(1).max(8).default(3).describe('longest phrase counted, words (K)'),
});
type P = z.infer<typeof Params>;

export function concordanceCores(p: Pick<P, 'cores'>, chip: ResolvedChip): number[] {
  if (p.cores > chip.topo.cores) throw overLimit('cores', p.cores, chip.topo.cores, chipHasCores(chip));
  return Array.from({ length: p.cores }, (_, i) => i);
}

// ------------------------------------------------------------------ the text and the direct count

function mix32(x: number): number {
  x = Math.imul(x ^ (x >>> 16), 0x7feb352d);
  x = Math.imul(x ^ (x >>> 15), 0x846ca68b);
  return (x ^ (x >>> 16)) >>> 0;
}

const VOCABULARY = 3000;
const LETTERS = 'etaoinshrdlucmfwypvbgkjqxz';

/** Word w of the vocabulary (2..9 letters). */
export function vocabularyWord(w: number): string {
  const h = mix32(w * 0x9e3779b1 + 0x1234567);
  const len = 2 + (h % (MAX_WORD - 1));
  let s = '';
  for (let i = 0; i < len; i++) {
    const r = mix32(h + i * 0x85ebca6b) % 1000;
    // skewed towards the frequent letters
    s += LETTERS[Math.floor(((r / 1000) ** 2) * LETTERS.length)];
  }
  return s;
}

/** The input text (ASCII): words separated by spaces, sentences ended by ". ", lines by "\n". */
export function generateText(seed: number, bytes: number): Uint8Array {
  const out = new Uint8Array(bytes);
  let n = 0;
  let k = 0;
  let line = 0;
  const u = () => mix32(mix32(seed ^ 0x636f6e63) + Math.imul(++k, 0x9e3779b1)) / 4294967296;
  const put = (s: string) => {
    for (let i = 0; i < s.length && n < bytes; i++) out[n++] = s.charCodeAt(i);
  };
  while (n < bytes) {
    const w = vocabularyWord(Math.floor(VOCABULARY * u() ** 3));
    put(w);
    line += w.length + 1;
    const r = u();
    if (r < 0.07) put('.');
    if (line > 64) {
      put('\n');
      line = 0;
    } else put(' ');
  }
  return out;
}

function isLetter(c: number): boolean {
  return c >= 97 && c <= 122;
}

/** Hash of a phrase (FNV-1a over its characters); a core owns the phrases with hash mod n = its rank. */
export function phraseHash(phrase: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < phrase.length; i++) h = Math.imul(h ^ phrase.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** Streams words out of text bytes fed in pieces. */
class Tokenizer {
  private word = '';
  readonly recent: string[] = [];
  constructor(
    readonly maxPhrase: number,
    readonly onWord: (recent: readonly string[]) => void,
  ) {}
  feed(bytes: Uint8Array, n: number): void {
    for (let i = 0; i < n; i++) {
      const c = bytes[i]!;
      if (isLetter(c)) this.word += String.fromCharCode(c);
      else this.end();
    }
  }
  end(): void {
    if (!this.word) return;
    this.recent.push(this.word);
    if (this.recent.length > this.maxPhrase) this.recent.shift();
    this.word = '';
    this.onWord(this.recent);
  }
}

/** Phrases ending at the newest word: the last 1, 2, ..., K words. */
function phrasesAt(recent: readonly string[], visit: (phrase: string) => void): void {
  let phrase = '';
  for (let k = 1; k <= recent.length; k++) {
    phrase = k === 1 ? recent[recent.length - 1]! : `${recent[recent.length - k]!} ${phrase}`;
    visit(phrase);
  }
}

/** The direct count: every phrase of 1..K words in the text, with its number of occurrences. */
export function directCount(text: Uint8Array, maxPhrase: number): Map<string, number> {
  const counts = new Map<string, number>();
  const t = new Tokenizer(maxPhrase, (recent) => phrasesAt(recent, (ph) => counts.set(ph, (counts.get(ph) ?? 0) + 1)));
  t.feed(text, text.length);
  t.end();
  return counts;
}

/** Digest of a concordance, independent of order: FNV-1a over the sorted "phrase\tcount" lines. */
export function concordanceDigest(counts: Map<string, number>): string {
  const lines = [...counts.entries()].map(([ph, c]) => `${ph}\t${c}`).sort();
  return phraseHash(lines.join('\n')).toString(16).padStart(8, '0');
}

// ------------------------------------------------------------------ the program

const KB = 1024;
const MB = 1024 * KB;
const TABLE = 16 * MB; // private: the count table, 16 B per bucket
const TABLE_BUCKETS = 1 << 16;
const FILE = 32 * MB; // private (file server): the output file
const MSG = 2 * MB; // private: outgoing / incoming record
const COUNT_MSG = 3 * MB;
const PIECE = 64;

const piece = new Uint8Array(PIECE);
const record = new Uint8Array(RECORD_BYTES);

function encodeRecord(phrase: string, count: number): number {
  record.fill(0);
  const s = `${phrase}\t${count}\n`;
  for (let i = 0; i < s.length; i++) record[i] = s.charCodeAt(i);
  return s.length;
}

function decodeRecord(bytes: Uint8Array): [string, number] {
  let end = bytes.indexOf(10);
  if (end < 0) end = bytes.length;
  const s = String.fromCharCode(...bytes.subarray(0, end));
  const tab = s.lastIndexOf('\t');
  return [s.slice(0, tab), Number(s.slice(tab + 1))];
}

export const concordance: WorkloadDef<P> = {
  name: 'concordance',
  title: 'SICSA concordance with a serialising file server',
  chart: { x: 'cores', y: 'timeNs' },
  description:
    'n cores each read the whole text from shared memory and count the phrases (up to K words) whose hash is theirs; a file server serialises their records into one file. Two cores are slower than one.',
  params: Params,
  participants: (p, chip) => {
    checkRcceChip(chip);
    return concordanceCores(p, chip);
  },
  coresParam: { name: 'cores' },
  *program(core: SccCore, p: P, ctx) {
    const chip = core.chip;
    const cores = concordanceCores(p, chip);
    const rank = cores.indexOf(core.id);
    const n = cores.length;
    const server = cores[0]!;
    const rcce = new Rcce(core, ctx.participants);
    const base = core.privateBase;
    const textAddr = sharedAddrOnController(chip, 0);

    // ---- set-up (untimed): the file server puts the input text into shared memory
    if (rank === 0) {
      const text = generateText(ctx.seed, p.textBytes);
      for (let o = 0; o < text.length; o += 2048) {
        core.writeRange(textAddr + o, Math.min(2048, text.length - o), text, o);
        if (core.due()) yield DUE;
      }
      core.fence();
    }
    yield* core.barrier();
    const t0 = core.now;

    // ---- read the whole text, count my phrases
    const counts = new Map<string, number>();
    let words = 0;
    const tok = new Tokenizer(p.maxPhrase, (recent) => {
      words++;
      phrasesAt(recent, (ph) => {
        core.compute(PHRASE_CYCLES);
        const h = phraseHash(ph);
        if (h % n !== rank) return;
        // the count table: probe the bucket, update its count
        const slot = base + TABLE + ((h >>> 8) & (TABLE_BUCKETS - 1)) * 16;
        const seen = core.load32(slot + 4);
        core.store32(slot, h);
        core.store32(slot + 4, seen + 1);
        core.compute(COUNT_CYCLES);
        counts.set(ph, (counts.get(ph) ?? 0) + 1);
      });
    });
    for (let o = 0; o < p.textBytes; o += PIECE) {
      const k = Math.min(PIECE, p.textBytes - o);
      core.readRange(textAddr + o, k, piece);
      core.compute(k * TOKENIZE_CYCLES_PER_BYTE);
      tok.feed(piece, k);
      if (core.due()) yield DUE;
    }
    tok.end();

    // ---- the records
    if (rank !== 0) {
      core.store32(base + COUNT_MSG, counts.size);
      yield* rcce.send(base + COUNT_MSG, 4, server);
      for (const [ph, c] of counts) {
        encodeRecord(ph, c);
        core.compute(RECORD_WRITE_CYCLES / 2); // formatting the record
        core.writeRange(base + MSG, RECORD_BYTES, record);
        yield* rcce.send(base + MSG, RECORD_BYTES, server);
      }
      core.report({ rank, endNs: core.now / 1000, startNs: t0 / 1000, words });
      return;
    }
    // the file server: my records first, then everyone else's, one at a time, rank by rank
    const file = new Map<string, number>();
    let fileEnd = base + FILE;
    const append = (len: number) => {
      core.compute(RECORD_WRITE_CYCLES);
      core.writeRange(fileEnd, len, record);
      fileEnd += len;
    };
    for (const [ph, c] of counts) {
      append(encodeRecord(ph, c));
      file.set(ph, c);
      if (core.due()) yield DUE;
    }
    for (let r = 1; r < n; r++) {
      yield* rcce.recv(base + COUNT_MSG, 4, cores[r]!);
      const m = core.load32(base + COUNT_MSG);
      for (let i = 0; i < m; i++) {
        yield* rcce.recv(base + MSG, RECORD_BYTES, cores[r]!);
        core.readRange(base + MSG, RECORD_BYTES, record);
        const [ph, c] = decodeRecord(record);
        file.set(ph, (file.get(ph) ?? 0) + c);
        append(encodeRecord(ph, c));
        if (core.due()) yield DUE;
      }
    }
    core.report({ rank, endNs: core.now / 1000, startNs: t0 / 1000, words, phrases: file.size, seed: ctx.seed, digest: concordanceDigest(file) });
  },
  summarize(rows: Row[], p: P): Row[] {
    const server = rows.find((r) => r.rank === 0)!;
    const start = Math.min(...rows.map((r) => r.startNs as number));
    const end = Math.max(...rows.map((r) => r.endNs as number));
    const direct = directCount(generateText(server.seed as number, p.textBytes), p.maxPhrase);
    return [
      {
        cores: p.cores,
        timeNs: end - start,
        phrases: server.phrases as number,
        textBytes: p.textBytes,
        maxPhrase: p.maxPhrase,
        words: server.words as number,
        correct: server.digest === concordanceDigest(direct) && server.phrases === direct.size,
      },
    ];
  },
  extra(rows: Row[], p: P) {
    const server = rows.find((r) => r.rank === 0)!;
    const direct = directCount(generateText(server.seed as number, p.textBytes), p.maxPhrase);
    return { correct: server.digest === concordanceDigest(direct), digest: server.digest as string, directDigest: concordanceDigest(direct), directPhrases: direct.size };
  },
};
