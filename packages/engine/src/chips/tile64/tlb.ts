/**
 * A data TLB: `entries` fully associative entries with LRU replacement, over pages of
 * 2^pageShift bytes (64 KB, or 16 MB huge pages). A miss runs the software refill handler
 * (TILE64: paper 000 lines 1003-1010), whose cycles the core charges as executed work.
 * Contract: lookup(addr) returns true on a hit and installs the page on a miss. Units: bytes.
 * Called on every access: no allocation (the last page hit is checked first; a hit scans for the
 * page only, a miss then for the LRU victim: the first entry with the lowest stamp).
 */
export class Tlb {
  private readonly pages: Int32Array; // page numbers (addr >>> shift: below 2^16), or -1
  private readonly stamps: Float64Array;
  private readonly shift: number;
  private stamp = 1;
  private lastPage = -1;
  misses = 0;
  hits = 0;

  constructor(entries: number, pageShift: number) {
    this.pages = new Int32Array(entries).fill(-1);
    this.stamps = new Float64Array(entries);
    this.shift = pageShift;
  }

  lookup(addr: number): boolean {
    const page = addr >>> this.shift;
    if (page === this.lastPage) {
      this.hits++;
      return true;
    }
    const p = this.pages;
    const n = p.length;
    for (let i = 0; i < n; i++)
      if (p[i] === page) {
        this.stamps[i] = this.stamp++;
        this.lastPage = page;
        this.hits++;
        return true;
      }
    const st = this.stamps;
    let victim = 0;
    for (let i = 1; i < n; i++) if (st[i]! < st[victim]!) victim = i;
    p[victim] = page;
    this.stamps[victim] = this.stamp++;
    this.lastPage = page;
    this.misses++;
    return false;
  }
}
