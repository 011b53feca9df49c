/**
 * Aliased views of one range of a core's private memory (a page-table feature several families
 * offer: the cluster's nodes and the SCC's cores; paper 004 lines 120-129, SkidMarks' protection
 * by aliasing).
 *
 * Contract
 * - aliasViewsEnd(who, base, bytes, copies, privateBase, privateBytes) checks a request for
 *   `copies` views of [base, base + bytes), view k at base + k x bytes, and returns the end of the
 *   last view. Whole 4 KB pages, at least 2 copies, every view inside [privateBase, privateBase +
 *   privateBytes); anything else is a SimulationError naming `who` ("core 3", "node 3") and the
 *   request. The core keeps base / end / bytes in its own fields and folds an address in
 *   [base, end) onto base + (addr - base) % bytes on every access (a range check on its hot path).
 * Units: bytes.
 */
import { SimulationError } from './core';

export function aliasViewsEnd(who: string, base: number, bytes: number, copies: number, privateBase: number, privateBytes: number): number {
  const end = base + bytes * copies;
  if (!(bytes > 0) || bytes % 4096 !== 0 || base % 4096 !== 0 || !Number.isInteger(copies) || copies < 2)
    throw new SimulationError(`${who}: aliased views need whole 4 KB pages and at least 2 copies (got 0x${base.toString(16)} + ${bytes} x ${copies})`);
  if (base < privateBase || end > privateBase + privateBytes)
    throw new SimulationError(
      `${who}: aliased views 0x${base.toString(16)}..0x${(end - 1).toString(16)} do not fit in private memory (0x${privateBase.toString(16)}..0x${(privateBase + privateBytes - 1).toString(16)})`,
    );
  return end;
}
