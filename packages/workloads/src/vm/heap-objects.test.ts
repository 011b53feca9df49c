import { describe, expect, it } from 'vitest';
import { CELL_CLASS0, CELL_FREE, CELL_VACATED, ClassLegend, HEAP_MAP_CELLS, cellBytesFor, coreHeapMap, fromBase64, heapMapOf, mergeHeapMaps, stripCells, toBase64, walkObjects } from './heap-objects';
import { HDR_OTE, type ProgramSpec } from './format';
import { layoutImage } from './image';
import { FlatPlacement, HostMemory, writeImage } from './reference';

/** A tiny image: the kernel classes and one class Point (x, y), laid out contiguously from 0x10000. */
function tinyImage() {
  const program: ProgramSpec = {
    classes: [{ name: 'Point', superclass: 'Object', instVars: ['x', 'y'], kind: 'pointers', methods: [], classMethods: [] }],
    globals: [],
    entryClass: 'Point',
    entrySelector: 'run:',
  };
  const placement = new FlatPlacement(0x10000, 0x1000, 4096);
  const image = layoutImage(program, 3, placement);
  const mem = new HostMemory();
  writeImage(mem, image);
  return { image, mem, end: placement.next };
}

describe('heap-objects: the walk reads the objects from memory', () => {
  it('finds every object of a tiny image with its size and its class name', () => {
    const { image, mem, end } = tinyImage();
    const objects = walkObjects(mem, 0x10000, end);
    expect(objects.length).toBe(image.objects.length);
    const legend = new ClassLegend(mem);
    objects.forEach((o, i) => {
      const io = image.objects[i]!;
      expect(o).toEqual({ body: io.body, bytes: 4 * io.words.length, classOop: io.words[0], live: true });
      const label = io.className.endsWith(' class') ? 'Class' : io.className;
      expect(legend.names[legend.codeOf(o.classOop) - CELL_CLASS0]).toBe(label);
    });
    // nil, true, false first: 12-byte objects of UndefinedObject, True, False
    expect(objects.slice(0, 3).map((o) => [o.bytes, legend.names[legend.codeOf(o.classOop) - CELL_CLASS0]])).toEqual([
      [12, 'UndefinedObject'],
      [12, 'True'],
      [12, 'False'],
    ]);
    expect(() => walkObjects(mem, 0x10000, end - 4)).toThrow(/runs past the heap's end/);
    mem.store32(end, 0x7); // a SmallInteger where a header's class should be
    expect(() => walkObjects(mem, 0x10000, end + 16)).toThrow(`heap walk: the word at 0x${end.toString(16)} (0x7) is not an object header's class (an OTE address)`);
  });

  it("encodes a strip whose cells hold the class covering most of each cell, 0 past the objects, and a vacated object's cells", () => {
    const { mem, end } = tinyImage();
    const objects = walkObjects(mem, 0x10000, end);
    const legend = new ClassLegend(mem);
    const cellBytes = 16;
    const cells = stripCells(objects, 0x10000, cellBytes, (c) => legend.codeOf(c), 64);
    // nil (12 B) and 4 B of true share cell 0: nil covers most of it
    expect(cells[0]).toBe(legend.codeOf(objects[0]!.classOop));
    // a cell inside one object holds that object's class
    for (const o of objects)
      for (let a = Math.ceil((o.body - 0x10000) / cellBytes) * cellBytes; a + cellBytes <= o.body + o.bytes - 0x10000 && a < 64 * cellBytes; a += cellBytes)
        expect(cells[a / cellBytes]).toBe(legend.codeOf(o.classOop));
    if (end - 0x10000 < 64 * cellBytes) expect(cells[63]).toBe(CELL_FREE);
    // vacate the second object (repoint its OTE): its cells, and only cells touching it, turn CELL_VACATED
    const victim = objects[4]!;
    mem.store32(mem.load32(victim.body + HDR_OTE), 0x90000);
    const after = walkObjects(mem, 0x10000, end);
    expect(after[4]!.live).toBe(false);
    expect(after.filter((o) => !o.live).length).toBe(1);
    const moved = stripCells(after, 0x10000, cellBytes, (c) => legend.codeOf(c), 64);
    const first = Math.floor((victim.body - 0x10000) / cellBytes);
    const last = Math.floor((victim.body + victim.bytes - 1 - 0x10000) / cellBytes);
    for (let c = 0; c < 64; c++) expect(moved[c] === CELL_VACATED).toBe(c >= first && c <= last);
  });

  it('base64 and cell sizes', () => {
    expect(toBase64(Uint8Array.of(0, 1, 2, 3, 255))).toBe('AAECA/8=');
    expect(toBase64(new Uint8Array(0))).toBe('');
    expect(cellBytesFor(100)).toBe(4);
    expect(cellBytesFor(HEAP_MAP_CELLS * 4)).toBe(4);
    expect(cellBytesFor(HEAP_MAP_CELLS * 4 + 1)).toBe(8);
    expect(cellBytesFor(HEAP_MAP_CELLS * 16 + 1)).toBe(32);
    expect(cellBytesFor(20000)).toBe(128);
  });

  it("one core's part per heap, merged, is the map of one memory: regions in order, one legend, each kind's largest cell", () => {
    const { mem, end } = tinyImage();
    const objects = walkObjects(mem, 0x10000, end);
    const cut = objects[Math.floor(objects.length / 3)]!.body; // two heaps of different extents (different own cells)
    const cells = 16;
    const regions = [
      { core: 0, region: 'readWrite' as const, base: 0x10000, start: 0x10000, end: cut, capacityBytes: 1 << 16 },
      { core: 1, region: 'readWrite' as const, base: cut, start: cut, end, capacityBytes: 1 << 16 },
    ];
    mem.store32(mem.load32(objects[1]!.body + HDR_OTE), 0x90000); // one vacated object in core 0's heap
    const one = heapMapOf(mem, regions, cells).map;
    // each core walks only its own heap; the parts arrive in any order
    const parts = [...coreHeapMap(mem, [regions[1]!], cells), ...coreHeapMap(mem, [regions[0]!], cells)];
    expect(parts[1]!.cellBytes).toBeLessThan(parts[0]!.cellBytes);
    expect(parts[1]!.strips.length).toBe(Math.log2(cellBytesFor(1 << 16, cells) / parts[1]!.cellBytes) + 1);
    const merged = mergeHeapMaps(parts, cells);
    expect(merged).toEqual(one);
    expect(merged.heaps.map((h) => [h.core, h.cellBytes, h.vacatedObjects])).toEqual([
      [0, parts[0]!.cellBytes, 1],
      [1, parts[0]!.cellBytes, 0],
    ]);
    expect([...fromBase64(merged.heaps[0]!.cells)]).toContain(CELL_VACATED);
    expect(merged.classes.slice(0, 2)).toEqual(['UndefinedObject', 'False']); // True (vacated here) is named by no live object
    // a part without the strip the merged cell needs is named
    expect(() => mergeHeapMaps([{ ...parts[0]!, strips: [] }, parts[1]!], cells)).toThrow(/core 1's readWrite heap has no strip of \d+-byte cells/);
    for (const n of [0, 1, 2, 3, 4, 5, 256]) {
      const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 37 + 11) & 0xff);
      expect([...fromBase64(toBase64(bytes))]).toEqual([...bytes]);
    }
    expect(() => fromBase64('AA*A')).toThrow('base64: the character at 2 is not base64');
    expect(() => fromBase64('A=AA')).toThrow('base64: the character at 1 is not base64');
    expect(() => fromBase64('AAA')).toThrow('base64: 3 characters, not a multiple of 4');
  });
});
