/**
 * WordCore: the scalar loads and stores of a family whose every access translates one address
 * and moves one 32-byte line (TILE64 tiles, cluster nodes), written once over the family's
 * `loadAt` / `storeAt`.
 *
 * Contract
 * - `loadAt(addr, size)` checks and charges a load of `size` bytes (1, 4 or 8) at `addr` and
 *   leaves the line holding it in `line` (as this core sees memory); it returns the byte offset
 *   of `addr` in that line.
 * - `storeAt(addr, size)` checks, charges and logs a store of the first `size` bytes of `val`.
 * - Values are little-endian, as on the modelled cores.
 * Called on every access: the buffers are allocated once per core, nothing per call.
 */
import { CoreBase } from './core';
import { valueAt } from './memory';

const LITTLE_ENDIAN_HOST = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

export abstract class WordCore extends CoreBase {
  /** The line of the last access: 8 words, and the same bytes. */
  protected readonly line32 = new Uint32Array(8);
  protected readonly line = new Uint8Array(this.line32.buffer);
  /** The same bytes as doubles (an aligned double's load reads it here: no DataView per load). */
  private readonly lineF64 = new Float64Array(this.line32.buffer);
  /** The bytes of the value being stored. */
  protected readonly val = new Uint8Array(8);
  protected readonly valDv = new DataView(this.val.buffer);
  private readonly val32 = new Uint32Array(this.val.buffer, 0, 2);

  protected abstract loadAt(addr: number, size: number): number;
  protected abstract storeAt(addr: number, size: number): void;

  load8(addr: number): number {
    return this.line[this.loadAt(addr, 1)]!;
  }
  load32(addr: number): number {
    // loadAt checked the alignment: the word is line32's (little-endian host: the same value as valueAt)
    const off = this.loadAt(addr, 4);
    return LITTLE_ENDIAN_HOST ? this.line32[off >>> 2]! : valueAt(this.line, off, 4);
  }
  loadF64(addr: number): number {
    const off = this.loadAt(addr, 8);
    // little-endian host (typed arrays use its byte order): the same value as valueAt's DataView read
    return (off & 7) === 0 && LITTLE_ENDIAN_HOST ? this.lineF64[off >>> 3]! : valueAt(this.line, off, 8);
  }

  store8(addr: number, value: number): void {
    this.val[0] = value;
    this.storeAt(addr, 1);
  }
  store32(addr: number, value: number): void {
    if (LITTLE_ENDIAN_HOST) this.val32[0] = value;
    else this.valDv.setUint32(0, value >>> 0, true);
    this.storeAt(addr, 4);
  }
  storeF64(addr: number, value: number): void {
    this.valDv.setFloat64(0, value, true);
    this.storeAt(addr, 8);
  }
}
