/**
 * The heap map object by object (issue 15 item 5, Must show: "A store into a replicated object
 * moves it to the read-write heap, on the heap map"): a `vm` run on the TILE64 (3 cores,
 * everything but contexts replicated, compiler benchmark size 2: the store barrier moves one
 * Association) shows every heap as a strip of cells; the move is an arrow at the slider's last
 * step and absent at its first; the results JSON's strips, moves and times are what the map
 * shows; hovering a cell names its core, heap, class and byte range; the regime toggle recolours.
 */
import { expect, test } from '@playwright/test';
import { LabPage } from './lab-page';

interface VmJson {
  workload: {
    rows: { correct: boolean; storeBarrierMoves: number; timeNs: number }[];
    vm: {
      moves: { className: string; fromCore: number; toCore: number; bytes: number; fromOffset: number; toOffset: number; timeNs: number }[];
      heapMap: { cellsPerHeap: number; classes: string[]; heaps: { core: number; region: string; cellBytes: number; cells: string; vacatedObjects: number }[] };
    };
  };
}

test('vm heap map: the store barrier moves a replicated Association to a read-write heap, replayed by the slider', async ({ page }) => {
  const lab = new LabPage(page);
  await lab.goto();
  await lab.setUpVm({ cores: 3, replication: 'all-but-contexts', benchmark: 'compiler', size: 2 });
  await lab.run();
  await lab.waitForDigest();
  await expect(lab.id('vm-object-map')).toBeVisible();
  const r = await lab.resultsJson<VmJson>();
  const row = r.workload.rows[0]!;
  const { moves, heapMap } = r.workload.vm;
  expect(row.correct).toBe(true);
  expect(row.storeBarrierMoves).toBe(1);
  expect(moves).toHaveLength(1);
  const m = moves[0]!;
  expect(m.className).toBe('Association');
  expect(m.timeNs).toBeGreaterThan(0);
  expect(m.timeNs).toBeLessThan(row.timeNs);
  // three cores: a read-write heap and a read-mostly slice each; one vacated object (the move's old copy)
  expect(heapMap.heaps).toHaveLength(6);
  expect(heapMap.heaps.reduce((a, h) => a + h.vacatedObjects, 0)).toBe(1);
  await expect(lab.id('vm-object-map')).toHaveAttribute('data-columns', '3');
  await expect(lab.id('vm-object-map-error')).toHaveCount(0);

  // the last step (the default) draws the move's arrow; the first draws none; the last again draws it
  const arrow = `Association:${m.fromCore}>${m.toCore}`;
  expect(await lab.objectMapState()).toMatchObject({ step: 1, moves: 1, arrows: [arrow], colourBy: 'class' });
  await expect(lab.id('vm-object-map-step')).toContainText('1 of 1 move');
  await expect(lab.id('vm-object-map-step')).toContainText(`Association (20 B)`);
  let withArrow = '';
  await expect.poll(async () => (withArrow = await lab.objectMapPixels())).not.toBe('');
  await lab.setObjectMapStep(0);
  expect((await lab.objectMapState()).arrows).toEqual([]);
  await expect(lab.id('vm-object-map-step')).toContainText('0 of 1 move');
  await expect.poll(() => lab.objectMapPixels()).not.toBe(withArrow);
  await lab.setObjectMapStep(1);
  expect((await lab.objectMapState()).arrows).toEqual([arrow]);
  await expect.poll(() => lab.objectMapPixels()).toBe(withArrow);

  // the cell the object left is vacated in the JSON strip; hovering it names the heap, the class and the bytes
  const from = heapMap.heaps.find((h) => h.core === m.fromCore && h.region === 'readMostly')!;
  const cells = Uint8Array.from(Buffer.from(from.cells, 'base64'));
  const fromCell = Math.floor(m.fromOffset / from.cellBytes);
  expect(cells[fromCell]).toBe(1);
  const tip = await lab.hoverObjectCell(m.fromCore, 'readMostly', fromCell, heapMap.cellsPerHeap);
  expect(tip).toContain(`core ${m.fromCore}, read-mostly slice (user-managed)`);
  expect(tip).toContain('vacated');
  expect(tip).toContain(`bytes ${fromCell * from.cellBytes}–${(fromCell + 1) * from.cellBytes} of the heap`);
  // a read-write cell at the start of core 0's heap: the boot context (a MethodContext) after the 64-byte Heap descriptor
  const rw0 = heapMap.heaps.find((h) => h.core === 0 && h.region === 'readWrite')!;
  const rwCells = Uint8Array.from(Buffer.from(rw0.cells, 'base64'));
  const first = rwCells.findIndex((c) => c >= 3);
  const tip2 = await lab.hoverObjectCell(0, 'readWrite', first, heapMap.cellsPerHeap);
  expect(tip2).toContain('core 0, read-write heap (homed)');
  expect(tip2).toContain(heapMap.classes[rwCells[first]! - 3]!);

  // the regime toggle recolours the map and its legend
  await lab.id('vm-object-map-colour').selectOption('regime');
  await expect(lab.id('vm-object-map')).toHaveAttribute('data-colour-by', 'regime');
  await expect(lab.id('vm-object-map-legend')).toContainText('read-mostly, user-managed');
  await expect.poll(() => lab.objectMapPixels()).not.toBe(withArrow);
});

test('vm heap map on 56 cores: a column per core, every move an arrow at the last step and none at the first', async ({ page }) => {
  const lab = new LabPage(page);
  await lab.goto();
  await lab.setUpVm({ cores: 56, replication: 'all-but-contexts', benchmark: 'compiler', size: 1 });
  await lab.run();
  await lab.waitForDigest();
  const r = await lab.resultsJson<VmJson>();
  const { moves, heapMap } = r.workload.vm;
  expect(heapMap.heaps).toHaveLength(112);
  expect(moves.length).toBeGreaterThan(0);
  const state = await lab.objectMapState();
  expect(state).toMatchObject({ columns: 56, moves: moves.length, step: moves.length });
  // the arrows in simulated-time order, as the JSON's moves (already in that order)
  expect(state.arrows).toEqual(moves.map((m) => `${m.className}:${m.fromCore}>${m.toCore}`));
  expect(moves.every((m, i) => i === 0 || moves[i - 1]!.timeNs <= m.timeNs)).toBe(true);
  await lab.setObjectMapStep(0);
  expect((await lab.objectMapState()).arrows).toEqual([]);
  await lab.setObjectMapStep(moves.length);
  await lab.id('canvas-vm-object-map').scrollIntoViewIfNeeded();
  await lab.shot('vm-object-map-56', lab.id('vm-object-map'));
});
