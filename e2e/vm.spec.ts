/**
 * The VM's views in the web lab (issue 15 item 5): a `vm` run on the TILE64 (3 cores, everything
 * but contexts replicated, a small compiler benchmark) shows the heap map, the baton's path and
 * the stalls by VM routine (stacked by cause) and per core, and every number they show equals the downloaded results JSON; the
 * store barrier's move of an Association appears on the heap map. The views are absent before
 * the run (the results' data decide), and they redraw in the dark and high-contrast themes.
 */
import { expect, test } from '@playwright/test';
import { LabPage } from './lab-page';

interface VmJson {
  workload: {
    rows: { migrations: number; migrationsPer1000Bytecodes: number; timeNs: number; correct: boolean }[];
    vm: {
      heaps: { core: number; readWrite: Record<string, number>; readMostly: Record<string, number>; allocatedBytes: number }[];
      baton: { from: number; to: number; count: number }[];
      moves: { className: string; fromCore: number; toCore: number; bytes: number }[];
      routines: { name: string; cycles: number; causes: Record<string, number> }[];
      causes: string[];
      perCore: { core: number; cycles: number[] }[];
    };
  };
}
const sum = (r: Record<string, number>) => Object.values(r).reduce((a, b) => a + b, 0);

test('vm on the TILE64: heap map, baton path and stalls by routine equal the results JSON', async ({ page }) => {
  const lab = new LabPage(page);
  await lab.goto();
  await lab.setUpVm({ cores: 3, replication: 'all-but-contexts', benchmark: 'compiler', size: 2 });
  await expect(lab.id('vm-views')).toHaveCount(0);
  await lab.run();
  await lab.waitForDigest();
  await expect(lab.id('vm-views')).toBeVisible();
  const r = await lab.resultsJson<VmJson>();
  const row = r.workload.rows[0]!;
  const vm = r.workload.vm;
  expect(row.correct).toBe(true);

  // baton: the migrations (row field), their sum over the edges, per 1000 bytecodes, per simulated second
  const shown = await lab.vmViewNumbers(0);
  expect(shown.migrations).toBe(row.migrations);
  expect(vm.baton.reduce((a, e) => a + e.count, 0)).toBe(row.migrations);
  expect(row.migrations).toBeGreaterThan(0);
  expect(shown.per1000).toBe(row.migrationsPer1000Bytecodes);
  await expect(lab.id('vm-baton-migrations')).toHaveText(String(row.migrations));
  await expect(lab.id('vm-baton-per-1000')).toHaveText(String(row.migrationsPer1000Bytecodes));
  const perS = Number(await lab.id('vm-baton').getAttribute('data-per-sim-second'));
  expect(perS).toBeCloseTo(row.migrations / (row.timeNs * 1e-9), 3);
  // the baton's table: the busiest edge first, with the JSON's count
  const busiest = [...vm.baton].sort((a, b) => b.count - a.count)[0]!;
  await lab.id('table-vm-baton').locator('summary').click();
  await expect(lab.id('table-vm-baton').locator('tbody tr').first()).toContainText(`core ${busiest.from}`);
  await expect(lab.id('table-vm-baton').locator('tbody tr').first()).toContainText(String(busiest.count));
  await expect(lab.id('table-vm-baton').locator('tbody tr')).toHaveCount(vm.baton.filter((e) => e.count > 0).length);

  // heap map: every core's bytes
  for (const h of vm.heaps) {
    const n = await lab.vmViewNumbers(h.core);
    expect(n.readWrite).toBe(sum(h.readWrite) + h.allocatedBytes);
    expect(n.readMostly).toBe(sum(h.readMostly));
    expect(n.allocated).toBe(h.allocatedBytes);
  }
  expect(sum(vm.heaps[0]!.readMostly)).toBeGreaterThan(0);
  // the store barrier moved an Association out of a read-mostly slice: on the map and in words
  const assoc = vm.moves.find((m) => m.className === 'Association');
  expect(assoc).toBeTruthy();
  expect(shown.moves).toBe(vm.moves.length);
  const move = lab.id('vm-heap-moves').locator(`[data-class="Association"]`).first();
  await expect(move).toContainText(`Association (${assoc!.bytes} B) moved from core ${assoc!.fromCore}'s read-mostly slice → core ${assoc!.toCore}'s read-write heap`);
  await expect(lab.id(`vm-heap-core-${assoc!.toCore}`)).toContainText('in');
  await lab.id('table-vm-heap-map').locator('summary').click();
  await expect(lab.id('table-vm-heap-map')).toContainText('Association');

  // routines: the largest from the JSON, its cycles, and the run's time
  const largest = [...vm.routines].sort((a, b) => b.cycles - a.cycles)[0]!;
  expect(shown.largest).toBe(largest.name);
  expect(shown.largestCycles).toBe(largest.cycles);
  expect(shown.timeNs).toBe(row.timeNs);
  await expect(lab.id('vm-routines-largest')).toContainText(`${largest.name} ${largest.cycles} cycles`);
  await lab.id('table-vm-routines').locator('summary').click();
  await expect(lab.id('table-vm-routines').locator('tbody tr')).toHaveCount(vm.routines.length);
  await expect(lab.id('table-vm-routines').locator('tbody tr').first()).toContainText(String(largest.cycles));
  // each routine stacked by cause: the causes drawn are those the JSON spent cycles in, the largest routine's split is the JSON's
  const active = vm.causes.filter((c) => vm.routines.some((rt) => (rt.causes[c] ?? 0) > 0));
  expect(active).toContain('remoteHome');
  await expect(lab.id('vm-routines')).toHaveAttribute('data-causes', active.join(' '));
  await expect(lab.id('vm-routines')).toHaveAttribute('data-largest-causes', active.map((c) => `${c}:${largest.causes[c]}`).join(' '));
  expect(active.reduce((a, c) => a + largest.causes[c]!, 0)).toBe(largest.cycles);
  const causeCells = await lab.id('table-vm-routines').locator('tbody tr').first().locator('th, td').allTextContents();
  expect(causeCells.slice(4).map(Number)).toEqual(active.map((c) => largest.causes[c]));
  // routines per core: one row per core with the JSON's cycles; over the cores each routine gives its total
  await checkPerCore(lab, vm);

  // drawn, and redrawn in the other themes (the canvases read the palette)
  const heapCanvas = lab.id('canvas-vm-heap-map');
  await heapCanvas.scrollIntoViewIfNeeded();
  await lab.shot('vm-heap-map', lab.id('vm-heap-map'));
  await lab.shot('vm-baton', lab.id('vm-baton'));
  await lab.shot('vm-routines', lab.id('vm-routines'));
  await lab.shot('vm-routines-cores', lab.id('vm-routines-cores'));
  const light = await heapCanvas.screenshot();
  await lab.setTheme('dark');
  await expect.poll(async () => (await heapCanvas.screenshot()).equals(light)).toBe(false);
  await lab.shot('vm-heap-map-dark', lab.id('vm-heap-map'));
  await lab.setTheme('contrast');
  await lab.shot('vm-baton-contrast', lab.id('vm-baton'));
  // the export buttons are reachable by keyboard
  await lab.id('export-svg-vm-routines').focus();
  await expect(lab.id('export-svg-vm-routines')).toBeFocused();
});

/** The per-core routines view against the JSON: its counts, its busiest core and every row of its data table. */
async function checkPerCore(lab: LabPage, vm: VmJson['workload']['vm']): Promise<void> {
  expect(vm.perCore.length).toBe(vm.heaps.length);
  vm.routines.forEach((rt, i) => expect(vm.perCore.reduce((a, c) => a + c.cycles[i]!, 0)).toBe(rt.cycles));
  const totals = vm.perCore.map((c) => ({ core: c.core, total: c.cycles.reduce((a, b) => a + b, 0) }));
  const busiest = totals.reduce((a, c) => (c.total > a.total ? c : a));
  const view = lab.id('vm-routines-cores');
  await expect(view).toHaveAttribute('data-cores', String(vm.perCore.length));
  await expect(view).toHaveAttribute('data-busiest-core', String(busiest.core));
  await expect(view).toHaveAttribute('data-busiest-total', String(busiest.total));
  await expect(lab.id('vm-routines-cores-summary')).toContainText(`Busiest: core ${busiest.core}`);
  await lab.id('table-vm-routines-cores').locator('summary').click();
  const rows = lab.id('table-vm-routines-cores').locator('tbody tr');
  await expect(rows).toHaveCount(vm.perCore.length);
  const header = await lab.id('table-vm-routines-cores').locator('thead th').allTextContents();
  expect(header.slice(2)).toEqual(vm.routines.map((r) => r.name));
  const sorted = [...vm.perCore].sort((a, b) => a.core - b.core);
  for (const k of [0, sorted.length - 1]) {
    const cells = await rows.nth(k).locator('th, td').allTextContents();
    expect(cells[0]).toBe(`core ${sorted[k]!.core}`);
    expect(cells.slice(1).map(Number)).toEqual([sorted[k]!.cycles.reduce((a, b) => a + b, 0), ...sorted[k]!.cycles]);
  }
}

/** Sets up a vm experiment on the TILE64 in the editor (skips when this build lacks the preset or the workload). */
async function vmExperiment(lab: LabPage, cores: number, replication: string, size: number): Promise<void> {
  await lab.goto();
  test.skip(!(await lab.hasOption('preset', 'tile64')), 'no tile64 preset in this build');
  await lab.setPreset('tile64');
  test.skip(!(await lab.hasOption('workload', 'vm')), 'no vm workload in this build');
  await lab.setWorkload('vm');
  await lab.setParam('cores', cores);
  await lab.selectParam('replication', replication);
  await lab.selectParam('benchmark', 'compiler');
  await lab.setParam('size', size);
  await expect(lab.id('validation-errors')).toHaveCount(0);
}

test('vm on 56 cores: one heap column and one cell per core, the baton over the whole mesh, a move across heaps', async ({ page }) => {
  const lab = new LabPage(page);
  await vmExperiment(lab, 56, 'all-but-contexts', 1);
  await lab.run();
  await lab.waitForDigest();
  const r = await lab.resultsJson<VmJson>();
  const vm = r.workload.vm;
  await expect(lab.id('vm-heap-map').locator('[data-testid^="vm-heap-core-"]')).toHaveCount(56);
  const shown = await lab.vmViewNumbers(55);
  expect(shown.migrations).toBe(r.workload.rows[0]!.migrations);
  expect(shown.readMostly).toBe(sum(vm.heaps[55]!.readMostly));
  expect(shown.moves).toBe(vm.moves.length);
  for (const [i, m] of vm.moves.slice(0, 3).entries()) {
    await expect(lab.id(`vm-heap-move-${i}`)).toHaveAttribute('data-class', m.className);
    await expect(lab.id(`vm-heap-move-${i}`)).toContainText(`core ${m.fromCore}'s read-mostly slice → core ${m.toCore}'s read-write heap`);
  }
  await expect(lab.id('vm-baton')).toHaveAttribute('data-edges', String(vm.baton.filter((e) => e.count > 0).length));
  await checkPerCore(lab, vm);
  await lab.id('canvas-vm-heap-map').scrollIntoViewIfNeeded();
  await lab.shot('vm-heap-map-56', lab.id('vm-heap-map'));
  await lab.shot('vm-baton-56', lab.id('vm-baton'));
  await lab.id('canvas-vm-routines-cores').scrollIntoViewIfNeeded();
  await lab.shot('vm-routines-cores-56', lab.id('vm-routines-cores'));
});

test('vm with one global read-mostly heap: its own column, the move leaves it, the baton never moves', async ({ page }) => {
  const lab = new LabPage(page);
  await vmExperiment(lab, 2, 'global', 1);
  await lab.run();
  await lab.waitForDigest();
  const r = await lab.resultsJson<VmJson>();
  const vm = r.workload.vm;
  const total = vm.heaps.reduce((a, h) => a + sum(h.readMostly), 0);
  await expect(lab.id('vm-heap-global')).toHaveAttribute('data-read-mostly-bytes', String(total));
  expect((await lab.vmViewNumbers(1)).readMostly).toBe(0);
  const fromGlobal = vm.moves.filter((m) => m.fromCore === -1);
  expect(fromGlobal.length).toBeGreaterThan(0);
  await expect(lab.id('vm-heap-moves').locator('[data-from-core="-1"]')).toHaveCount(fromGlobal.length);
  await expect(lab.id('vm-heap-moves')).toContainText('moved from the global read-mostly heap → core');
  await expect(lab.id('vm-baton-migrations')).toHaveText(String(r.workload.rows[0]!.migrations));
  await lab.id('canvas-vm-heap-map').scrollIntoViewIfNeeded();
  await lab.shot('vm-heap-map-global', lab.id('vm-heap-map'));
});
