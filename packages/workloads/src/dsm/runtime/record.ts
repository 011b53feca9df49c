/**
 * What a DSM processor did and sent, for the web's views (issue 16 item 7): an interval
 * timeline of spans {kind, startPs, endPs}, the write notices it sent to each processor and its
 * datagrams by message type. Recording only: nothing here charges time or changes the protocol.
 *
 * Contract
 * - Off until `begin()` (the workload calls it at the start of the timed part, after the
 *   harness barrier) and after `finish()` (at the end barrier's departure): the spans then
 *   cover [begin, finish] of this processor's clock (core.now, ps) exactly, ordered, without
 *   overlap or gap; adjacent spans of one kind are merged; zero-length spans are dropped.
 * - Kinds (SPAN_KINDS): compute (the application's own work, and closing an interval at a
 *   release: the object runtime's compare, mprotect), fault (the trap and the fault handler:
 *   twins, mprotect, and the fetch of diffs or objects with its wait), lock (an acquire waiting for its grant), barrier (from the arrival to the
 *   departure), serve (requests served on a signal while computing). A wait serves whatever
 *   arrives meanwhile: that time stays the wait's kind.
 * - `enter(kind)` switches the current kind and returns the previous one; `leave(prev)` switches
 *   back. Both are allocation-free: spans go to preallocated typed arrays, the first SPAN_CAP of
 *   them; later ones are only counted (`moreSpans`), while `kindPs` (time per kind) counts all.
 * - Time slices (the whole timed part, whatever the span count): SLICES slices of `slicePs`
 *   each from begin, each with the time per kind spent in it; slicePs starts at
 *   FIRST_SLICE_PS and doubles (neighbouring slices merged) whenever the timed part outgrows
 *   SLICES x slicePs. Allocation-free; every span's time lands in the slices it overlaps.
 * - Write notices: `notices(n)` when n notices are encoded into the outgoing message,
 *   `sendingTo(to)` when that message is sent: `noticesTo[to]` counts them (so the matrix of
 *   every processor sums to the notices counted in stats while recording). `sent(type, bytes)`
 *   counts one datagram of that type and its bytes (header included).
 * Units: ps.
 */

export const SPAN_KINDS = ['compute', 'fault', 'lock', 'barrier', 'serve'] as const;
export type SpanKind = (typeof SPAN_KINDS)[number];
export const K_COMPUTE = 0;
export const K_FAULT = 1;
export const K_LOCK = 2;
export const K_BARRIER = 3;
export const K_SERVE = 4;

/** Spans kept per processor (model of the view's budget: 32 processors x 256 spans draw in one canvas). */
export const SPAN_CAP = 256;

/** Time slices kept per processor, and the first slice width (ps): 1 us, doubled as the run grows. */
export const SLICES = 128;
export const FIRST_SLICE_PS = 1e6;

/** Message types (lrc.ts MSG; the unit runtimes' own from MSG.UNIT = 16) by name, per runtime. */
export const MESSAGE_NAMES: Record<'page' | 'object', Record<number, string>> = {
  page: { 1: 'lock request', 2: 'lock forward', 3: 'lock grant', 4: 'barrier arrival', 5: 'barrier departure', 16: 'diff request', 17: 'diff reply' },
  object: { 1: 'lock request', 2: 'lock forward', 3: 'lock grant', 4: 'barrier arrival', 5: 'barrier departure', 16: 'object request', 17: 'object reply' },
};

export class DsmRecorder {
  on = false;
  private cur = K_COMPUTE;
  private curStart = 0;
  readonly startPs = new Float64Array(SPAN_CAP);
  readonly endPs = new Float64Array(SPAN_CAP);
  readonly kind = new Uint8Array(SPAN_CAP);
  spans = 0;
  moreSpans = 0;
  readonly kindPs = new Float64Array(SPAN_KINDS.length);
  readonly noticesTo: Float64Array;
  readonly byType = new Float64Array(256);
  readonly bytesByType = new Float64Array(256);
  private pending = 0;
  private lastKind = -1;
  slicePs = FIRST_SLICE_PS;
  readonly slices = new Float64Array(SLICES * SPAN_KINDS.length);
  private lastEnd = 0;
  beganPs = 0;
  finishedPs = 0;

  constructor(
    private readonly clock: { readonly now: number },
    procs: number,
  ) {
    this.noticesTo = new Float64Array(procs);
  }

  begin(): void {
    this.on = true;
    this.cur = K_COMPUTE;
    this.curStart = this.beganPs = this.clock.now;
    this.spans = this.moreSpans = this.pending = 0;
    this.lastKind = -1;
    this.slicePs = FIRST_SLICE_PS;
    this.slices.fill(0);
    this.kindPs.fill(0);
    this.noticesTo.fill(0);
    this.byType.fill(0);
    this.bytesByType.fill(0);
  }

  finish(): void {
    if (!this.on) return;
    this.close(this.clock.now);
    this.finishedPs = this.clock.now;
    this.on = false;
  }

  enter(kind: number): number {
    const prev = this.cur;
    if (kind === prev) return prev;
    if (this.on) this.close(this.clock.now);
    this.cur = kind;
    return prev;
  }

  leave(prev: number): void {
    this.enter(prev);
  }

  private close(t: number): void {
    const s = this.curStart;
    this.curStart = t;
    if (!(t > s)) return;
    const k = this.cur;
    this.kindPs[k] += t - s;
    this.slice(k, s - this.beganPs, t - this.beganPs);
    if (k === this.lastKind && s === this.lastEnd) {
      // the same kind resumed at once (a fault check that took no fault): one span
      this.lastEnd = t;
      if (this.moreSpans === 0) this.endPs[this.spans - 1] = t;
      return;
    }
    this.lastKind = k;
    this.lastEnd = t;
    const n = this.spans;
    if (n < SPAN_CAP) {
      this.startPs[n] = s;
      this.endPs[n] = t;
      this.kind[n] = k;
      this.spans = n + 1;
    } else this.moreSpans++;
  }

  /** Adds [a, b) (ps since begin) of kind k to the slices it overlaps, coarsening first if b is beyond the last. */
  private slice(k: number, a: number, b: number): void {
    const K = SPAN_KINDS.length;
    const sl = this.slices;
    while (b > SLICES * this.slicePs) {
      for (let i = 0; i < SLICES / 2; i++) for (let j = 0; j < K; j++) sl[i * K + j] = sl[2 * i * K + j]! + sl[(2 * i + 1) * K + j]!;
      sl.fill(0, (SLICES / 2) * K);
      this.slicePs *= 2;
    }
    const w = this.slicePs;
    let i = Math.min(SLICES - 1, Math.floor(a / w));
    while (a < b) {
      const end = i >= SLICES - 1 ? b : Math.min(b, (i + 1) * w);
      sl[i * K + k] += end - a;
      a = end;
      i++;
    }
  }

  notices(n: number): void {
    this.pending += n;
  }

  sendingTo(to: number): void {
    if (this.pending && this.on) this.noticesTo[to] += this.pending;
    this.pending = 0;
  }

  sent(type: number, bytes: number): void {
    if (!this.on) return;
    this.byType[type & 255] += 1;
    this.bytesByType[type & 255] += bytes;
  }

  /**
   * The recording as row fields (strings: a row holds numbers, strings and booleans):
   * spans "kind:startPs:endPs ..." (ps rounded to integers, shared boundaries round alike),
   * kindPs "ps ps ..." in SPAN_KINDS order, noticesTo "n n ..." per receiver, msgTypes
   * "type:count:bytes ...".
   */
  toRow(): { spans: string; moreSpans: number; kindPs: string; slicePs: number; slices: string; noticesTo: string; msgTypes: string; beganPs: number; finishedPs: number } {
    const spans: string[] = [];
    for (let i = 0; i < this.spans; i++) spans.push(`${this.kind[i]}:${Math.round(this.startPs[i]!)}:${Math.round(this.endPs[i]!)}`);
    // slices "ps,ps,ps,ps,ps ..." up to the last one with any time
    const K = SPAN_KINDS.length;
    let last = SLICES - 1;
    while (last >= 0 && this.slices.subarray(last * K, last * K + K).every((v) => v === 0)) last--;
    const slices: string[] = [];
    for (let i = 0; i <= last; i++) slices.push(Array.from(this.slices.subarray(i * K, i * K + K), (v) => Math.round(v)).join(','));
    const types: string[] = [];
    for (let t = 0; t < 256; t++) if (this.byType[t]) types.push(`${t}:${this.byType[t]}:${this.bytesByType[t]}`);
    return {
      spans: spans.join(' '),
      moreSpans: this.moreSpans,
      kindPs: Array.from(this.kindPs, (v) => Math.round(v)).join(' '),
      slicePs: this.slicePs,
      slices: slices.join(' '),
      noticesTo: Array.from(this.noticesTo).join(' '),
      msgTypes: types.join(' '),
      beganPs: Math.round(this.beganPs),
      finishedPs: Math.round(this.finishedPs),
    };
  }
}
