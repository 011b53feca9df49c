import { describe, expect, it } from 'vitest';
import { resolveChip } from '@manycore/engine';
import { CELL_CLASS0, CELL_FREE, CELL_VACATED, ClassLegend, HEAP_MAP_CELLS, SparseMemory, cellBytesFor, heapMapOf, replayHeaps, stripCells, toBase64, walkObjects } from './heap-objects';
import { HDR_OTE, type ProgramSpec } from './format';
import { layoutImage } from './image';
import { MOVE_FIELDS } from './interpreter';
import { FlatPlacement, writeImage } from './reference';

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
  const mem = new SparseMemory();
  writeImage(mem.core(0, 0, 2 ** 32), image);
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

  it("a store into a replicated object moves it: the replay's map shows the live copy in the read-write heap and the old cells vacated", () => {
    const chip = resolveChip('tile64');
    const replay = replayHeaps(chip, { benchmark: 'compiler', size: 2, cores: 3, heapBytes: 1 << 20, replication: 'all-but-contexts', imageFillerKB: 0 });
    expect(replay.moves.length).toBe(MOVE_FIELDS); // one move (workload.test.ts: storeBarrierMoves 1)
    const [oop, oldBody, newBody, words] = replay.moves as [number, number, number, number];
    const { map, objects } = heapMapOf(replay.mem, replay.regions);
    expect(map.heaps.map((h) => `${h.core}:${h.region}`)).toEqual(['0:readWrite', '1:readWrite', '2:readWrite', '0:readMostly', '1:readMostly', '2:readMostly']);
    const all = objects.flat();
    const old = all.find((o) => o.body === oldBody)!;
    const copy = all.find((o) => o.body === newBody)!;
    expect(old).toMatchObject({ live: false, bytes: 4 * words });
    expect(copy).toMatchObject({ live: true, bytes: 4 * words, classOop: old.classOop });
    expect(replay.mem.load32(oop)).toBe(newBody);
    const fresh = new ClassLegend(replay.mem);
    expect(fresh.names[fresh.codeOf(copy.classOop) - CELL_CLASS0]).toBe('Association');
    expect(map.classes).toContain('Association');
    // exactly one vacated object, in a read-mostly slice; the copy in a read-write heap
    const at = (body: number) => replay.regions.findIndex((r) => body >= r.base && body < r.base + (1 << 20));
    expect(map.heaps.reduce((a, h) => a + h.vacatedObjects, 0)).toBe(1);
    expect(replay.regions[at(oldBody)]!.region).toBe('readMostly');
    expect(replay.regions[at(newBody)]!.region).toBe('readWrite');
    const h = map.heaps[at(oldBody)]!;
    const cells = Uint8Array.from(atob(h.cells), (c) => c.charCodeAt(0));
    expect(cells.length).toBe(HEAP_MAP_CELLS);
    expect(cells[Math.floor((oldBody - replay.regions[at(oldBody)]!.base) / h.cellBytes)]).toBe(CELL_VACATED);
    expect([...cells].filter((c) => c === CELL_VACATED).length).toBeGreaterThanOrEqual(1);
    // the read-write heaps' cells are one size, the read-mostly slices' another; every live object counted
    expect(new Set(map.heaps.filter((x) => x.region === 'readWrite').map((x) => x.cellBytes)).size).toBe(1);
    expect(map.heaps.reduce((a, x) => a + x.liveObjects + x.vacatedObjects, 0)).toBe(all.length);
  });
});
