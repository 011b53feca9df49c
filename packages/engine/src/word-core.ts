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
 * - `memWord(lineId, byte)` / `memByte(lineId, byte)`: one word (byte a multiple of 4) or one
 *   byte of a line as this core sees memory (committed + its own writes of this epoch): the
 *   same value readMemLine's copy of the line holds there, without copying the line (a family's
 *   scalar load that needs one word uses them instead of readMemLine).
 * Called on every access: the buffers are allocated once per core, nothing per call.
 */
import { CoreBase } from './core';
import { BLOCK_BYTES, BLOCKS_PER_CTRL } from './layout';
import { readCommittedLine, valueAt } from './memory';
import { SPACE_SHIFT, SPACE_TAS } from './vocabulary';

export const LITTLE_ENDIAN_HOST = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
/** memory.ts's DRAM block geometry: 4096 lines of 32 B per 128 KB block. */
const LINES_PER_BLOCK_SHIFT = 12;
const BLOCK_WORDS = BLOCK_BYTES / 4;

export abstract class WordCore extends CoreBase {
  /** The line of the last access: 8 words, and the same bytes. */
  protected readonly line32 = new Uint32Array(8);
  protected readonly line = new Uint8Array(this.line32.buffer);
  /** The same bytes as doubles (an aligned double's load reads it here: no DataView per load). */
  private readonly lineF64 = new Float64Array(this.line32.buffer);
  /** The bytes of the value being stored. */
  protected readonly val = new Uint8Array(8);
  protected readonly valDv = new DataView(this.val.buffer);
  /** The same bytes as words (a 4-byte value's bytes are word 0). */
  protected readonly val32 = new Uint32Array(this.val.buffer, 0, 2);

  /** memWord's line when it is not DRAM (an MPB or test-and-set line: read whole, rare). */
  private readonly other32 = new Uint32Array(8);
  private readonly other = new Uint8Array(this.other32.buffer);

  protected abstract loadAt(addr: number, size: number): number;

  /** The word at byte `byte` (a multiple of 4) of line `lineId` as this core sees memory, as a little-endian host's Uint32Array reads it, as int32 (`>>> 0` for the unsigned value; no boxing between the calls). */
  protected memWord(lineId: number, byte: number): number {
    const ovl = this.ovl;
    const o = ovl.find(lineId);
    if (o >= 0) return ovl.data32[(o + byte) >>> 2]! | 0;
    const space = lineId >>> SPACE_SHIFT;
    if (space >= SPACE_TAS) {
      // a test-and-set or MPB line (spaces above the DRAM controllers'): readCommittedLine knows them
      readCommittedLine(this.v, lineId, this.other32, 0);
      return this.other32[byte >>> 2]! | 0;
    }
    const line = lineId & 0x0fffffff;
    const b = this.v.blocks[space * BLOCKS_PER_CTRL + (line >>> LINES_PER_BLOCK_SHIFT)]!;
    if (b === 0) return 0;
    return this.v.pool32[(b - 1) * BLOCK_WORDS + ((line & ((1 << LINES_PER_BLOCK_SHIFT) - 1)) << 3) + (byte >>> 2)]! | 0;
  }

  /** The byte at `byte` of line `lineId` as this core sees memory. */
  protected memByte(lineId: number, byte: number): number {
    const ovl = this.ovl;
    const o = ovl.find(lineId);
    if (o >= 0) return ovl.data[o + byte]!;
    const space = lineId >>> SPACE_SHIFT;
    if (space >= SPACE_TAS) {
      // a test-and-set or MPB line (spaces above the DRAM controllers'): readCommittedLine knows them
      readCommittedLine(this.v, lineId, this.other32, 0);
      return this.other[byte]!;
    }
    const line = lineId & 0x0fffffff;
    const b = this.v.blocks[space * BLOCKS_PER_CTRL + (line >>> LINES_PER_BLOCK_SHIFT)]!;
    if (b === 0) return 0;
    return this.v.poolU8[(b - 1) * BLOCK_BYTES + ((line & ((1 << LINES_PER_BLOCK_SHIFT) - 1)) << 5) + byte]!;
  }
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
