/** Page object of the lab: every control by its data-testid. */
import { expect, type Locator, type Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ARTIFACTS = join(dirname(fileURLToPath(import.meta.url)), 'artifacts');
export const SHOTS = join(ARTIFACTS, 'screenshots');

export interface FrameStats {
  fps: number;
  p95FrameMs: number;
  simNsPerS: number;
  epochs: number;
  /** Share of the window the frame pacer held the workers (null without pacing). */
  heldShare: number | null;
}

export class LabPage {
  constructor(readonly page: Page) {}

  id(testId: string): Locator {
    return this.page.getByTestId(testId);
  }

  private tourMuted = false;

  /**
   * Opens the lab in a fresh document (a hash-only change would keep the old page). The
   * first-visit tour is marked as seen first unless `tour` is true (it is not modal either way).
   */
  async goto(path = '/', opts: { tour?: boolean } = {}): Promise<void> {
    if (!opts.tour && !this.tourMuted) {
      this.tourMuted = true;
      // (storage blocked, e.g. on about:blank: the tour shows, and does not block the page)
      await this.page.addInitScript({
        content: "try { if (localStorage.getItem('manycore.tour') === null) localStorage.setItem('manycore.tour', 'done'); } catch (e) {}",
      });
    }
    await this.page.goto('about:blank');
    await this.page.goto(path);
    await expect(this.id('editor').or(this.id('isolation-panel'))).toBeVisible();
  }

  get status(): Locator {
    return this.id('status');
  }
  async expectStatus(text: string | RegExp, timeout = 20_000): Promise<void> {
    await expect(this.status).toHaveText(text, { timeout });
  }

  async run(): Promise<void> {
    await this.id('run').click();
  }
  async step(): Promise<void> {
    await this.id('step').click();
  }
  async reset(): Promise<void> {
    await this.id('reset').click();
  }
  async epoch(): Promise<number> {
    return Number(await this.id('epoch').textContent());
  }
  /** Waits until the engine itself holds at an epoch boundary (a pause lands after the epoch in flight). */
  async expectEngineHeld(): Promise<void> {
    await expect(this.id('epoch')).toHaveAttribute('data-engine', 'paused');
  }
  async simTime(): Promise<string> {
    return (await this.id('sim-time').textContent()) ?? '';
  }

  async openDetails(summary: string): Promise<void> {
    const d = this.page.locator('details', { has: this.page.locator('summary', { hasText: summary }) }).first();
    if ((await d.getAttribute('open')) === null) await d.locator('summary').click();
  }
  async setCoresPerWorker(n: number): Promise<void> {
    await this.openDetails('Run settings');
    await this.id('cores-per-worker').selectOption(String(n));
  }
  async setSpeed(nsPerS: number | 'max'): Promise<void> {
    await this.id('speed').selectOption(nsPerS === 'max' ? 'Infinity' : String(nsPerS));
  }
  async setWorkload(name: string): Promise<void> {
    await this.id('workload').selectOption(name);
  }
  async setPreset(name: string): Promise<void> {
    await this.id('preset').selectOption(name);
  }
  /** Whether a select offers an option with this value (e.g. a preset, workload or mesh size that may not exist yet). */
  async hasOption(testId: string, value: string): Promise<boolean> {
    return (await this.id(testId).locator(`option[value="${value}"]`).count()) > 0;
  }
  /** What the chip view draws, as ChipView states it (cores, tiles, controllers, domains, tile store). */
  async floorplan(): Promise<{ cores: number; tiles: number; controllers: number; domains: number; store: string }> {
    const el = this.id('chip-floorplan');
    const n = async (a: string) => Number(await el.getAttribute(`data-${a}`));
    return { cores: await n('cores'), tiles: await n('tiles'), controllers: await n('controllers'), domains: await n('domains'), store: (await el.getAttribute('data-store')) ?? '' };
  }
  /** The chip view's read-out of the family's per-tile unit (e.g. TILE64's home L2 slices): fullest tile, lines in all, tiles holding any. */
  async unitOccupancy(): Promise<{ max: number; total: number; tiles: number }> {
    const el = this.id('unit-occupancy');
    const n = async (a: string) => Number(await el.getAttribute(`data-${a}`));
    return { max: await n('max'), total: await n('total'), tiles: await n('tiles') };
  }
  /** The chip canvas's zoom, view origin (world units) and level of detail. */
  async chipView(): Promise<{ zoom: number; view: string; detail: string }> {
    const c = this.id('canvas-chip');
    return { zoom: Number(await c.getAttribute('data-zoom')), view: (await c.getAttribute('data-view')) ?? '0.0,0.0', detail: (await c.getAttribute('data-detail')) ?? '' };
  }
  /** Drags on the chip canvas by (dx, dy) CSS pixels from its centre. */
  async dragChip(dx: number, dy: number): Promise<void> {
    const box = (await this.id('canvas-chip').boundingBox())!;
    const x = box.x + box.width / 2;
    const y = box.y + box.height / 2;
    await this.page.mouse.move(x, y);
    await this.page.mouse.down();
    await this.page.mouse.move(x + dx, y + dy, { steps: 6 });
    await this.page.mouse.up();
  }
  async setParam(name: string, value: string | number): Promise<void> {
    await this.id(`param-${name}`).fill(String(value));
  }
  /** The text of an element, as a number (digits and dots only). */
  async numberOf(testId: string): Promise<number> {
    return Number(((await this.id(testId).textContent()) ?? '').replace(/[^\d.]/g, '') || 'NaN');
  }
  /** A workload parameter with a fixed set of values (a select). */
  async selectParam(name: string, value: string): Promise<void> {
    await this.id(`param-${name}`).selectOption(value);
  }

  async waitForDigest(timeout = 120_000): Promise<string> {
    await expect(this.id('digest')).toBeVisible({ timeout });
    return (await this.id('digest').textContent())!.trim();
  }

  async copyLink(): Promise<string> {
    await this.id('copy-link').click();
    await expect(this.id('share-url')).toBeVisible();
    return this.id('share-url').inputValue();
  }

  async experiment(): Promise<Record<string, unknown>> {
    return JSON.parse((await this.id('experiment-json').textContent())!) as Record<string, unknown>;
  }

  async chipPixels(): Promise<Buffer> {
    return this.id('canvas-chip').screenshot();
  }

  /** Clicks core `core` of a chip whose tiles hold two cores (world coordinates of chip-draw.ts). */
  async clickCore(core: number, meshWidth: number): Promise<void> {
    const canvas = this.id('canvas-chip');
    const box = (await canvas.boundingBox())!;
    const worldW = Number(await canvas.getAttribute('data-world-width'));
    const s = box.width / worldW;
    const tile = Math.floor(core / 2);
    const tx = 104 + (tile % meshWidth) * 146;
    const ty = 40 + Math.floor(tile / meshWidth) * 170;
    const x = tx + 7 + (core % 2) * 46 + 20;
    const y = ty + 7 + 30;
    await canvas.hover({ position: { x: x * s, y: y * s } });
    await canvas.click({ position: { x: x * s, y: y * s } });
  }

  async shot(name: string, target?: Locator): Promise<void> {
    mkdirSync(SHOTS, { recursive: true });
    const path = join(SHOTS, `${name}.png`);
    if (target) await target.screenshot({ path });
    else await this.page.screenshot({ path });
  }

  /**
   * Frames the way a user sees them: requestAnimationFrame timestamps over `ms`, with the
   * run's simulated time and the frame pacer's numbers over the same window.
   */
  async measureFrames(ms: number): Promise<FrameStats> {
    return this.page.evaluate((ms) => {
      type Run = { simNs: number; epoch: number; pacing: { heldMs: number; sinceMs: number; frames: number } | null };
      const g = globalThis as unknown as { __manycore?: { run?: Run }; requestAnimationFrame(cb: (now: number) => void): number };
      const run = g.__manycore?.run;
      return new Promise<FrameStats>((done) => {
        const stamps: number[] = [];
        let sim0 = 0;
        let epoch0 = 0;
        let pace0: Run['pacing'] = null;
        const frame = (now: number) => {
          if (stamps.length === 0) {
            sim0 = run?.simNs ?? 0;
            epoch0 = run?.epoch ?? 0;
            pace0 = run?.pacing ?? null;
          }
          stamps.push(now);
          if (now - stamps[0]! < ms) {
            g.requestAnimationFrame(frame);
            return;
          }
          const wall = now - stamps[0]!;
          const gaps = stamps
            .slice(1)
            .map((s, i) => s - stamps[i]!)
            .sort((a, b) => a - b);
          const pace1 = run?.pacing ?? null;
          done({
            fps: Math.round(((stamps.length - 1) * 1000 * 10) / wall) / 10,
            p95FrameMs: Math.round(gaps[Math.floor(0.95 * (gaps.length - 1))]! * 10) / 10,
            simNsPerS: Math.round((((run?.simNs ?? 0) - sim0) * 1000) / wall),
            epochs: (run?.epoch ?? 0) - epoch0,
            heldShare: pace0 && pace1 ? Math.round((1000 * (pace1.heldMs - pace0.heldMs)) / (pace1.sinceMs - pace0.sinceMs)) / 1000 : null,
          });
        };
        g.requestAnimationFrame(frame);
      });
    }, ms);
  }

  /** Hides the page as the lab sees it (document.hidden and a visibilitychange event), or shows it again. */
  async setHidden(hidden: boolean): Promise<void> {
    await this.page.evaluate((hidden) => {
      const g = globalThis as unknown as { document: Record<string, unknown> & { dispatchEvent(e: unknown): void }; Event: new (type: string) => unknown };
      const doc = g.document;
      if (hidden) {
        Object.defineProperty(doc, 'hidden', { configurable: true, get: () => true });
        Object.defineProperty(doc, 'visibilityState', { configurable: true, get: () => 'hidden' });
      } else {
        delete doc.hidden;
        delete doc.visibilityState;
      }
      doc.dispatchEvent(new g.Event('visibilitychange'));
    }, hidden);
  }

  /** The current run as the page exposes it for tests (window.__manycore.run). */
  async runInfo(): Promise<{ status: string; simNs: number; epoch: number; pacing: { frames: number; heldMs: number } | null } | null> {
    return this.page.evaluate(() => {
      const r = (globalThis as unknown as { __manycore?: { run?: { status: string; simNs: number; epoch: number; pacing: { frames: number; heldMs: number } | null } } }).__manycore?.run;
      return r ? { status: r.status, simNs: r.simNs, epoch: r.epoch, pacing: r.pacing ? { frames: r.pacing.frames, heldMs: r.pacing.heldMs } : null } : null;
    });
  }

  /** Samples the page's frame rate `n` times, `everyMs` apart. */
  async sampleFps(n: number, everyMs: number): Promise<{ fps: number[]; frameWorkMs: number[] }> {
    const fps: number[] = [];
    const frameWorkMs: number[] = [];
    for (let i = 0; i < n; i++) {
      await this.page.waitForTimeout(everyMs);
      const m = await this.page.evaluate(() => (globalThis as unknown as { __manycore?: { fps: number; workMs: number } }).__manycore);
      fps.push(m?.fps ?? 0);
      frameWorkMs.push(Math.round((m?.workMs ?? 0) * 100) / 100);
    }
    return { fps, frameWorkMs };
  }

  /** The text of an element, trimmed. */
  async text(testId: string): Promise<string> {
    return ((await this.id(testId).textContent()) ?? '').trim();
  }

  /** The finished run's results JSON, as the "Results JSON" export button downloads it. */
  async resultsJson<T = Record<string, unknown>>(): Promise<T> {
    const [download] = await Promise.all([this.page.waitForEvent('download'), this.id('export-json').click()]);
    const path = await download.path();
    const { readFileSync } = await import('node:fs');
    return JSON.parse(readFileSync(path, 'utf8')) as T;
  }

  /** Chooses a theme in the header ('system', 'light', 'dark', 'contrast'). */
  async setTheme(theme: string): Promise<void> {
    await this.id('theme').selectOption(theme);
    await expect(this.page.locator('html')).toHaveAttribute('data-theme-choice', theme);
  }
  /** Chooses a text size in the header (100, 125, 150, 200 %). */
  async setTextSize(percent: number): Promise<void> {
    await this.id('text-size').selectOption(String(percent));
  }
  /** A computed style property of the first element matching `selector`. */
  async computed(selector: string, property: string): Promise<string> {
    return this.page
      .locator(selector)
      .first()
      .evaluate((el, prop) => (globalThis as unknown as { getComputedStyle(e: unknown): { getPropertyValue(p: string): string } }).getComputedStyle(el).getPropertyValue(prop), property);
  }
  /** Gives the chip view the keyboard focus. */
  async focusChip(): Promise<void> {
    await this.id('canvas-chip').focus();
    await expect(this.id('canvas-chip')).toBeFocused();
  }
  /** The message beside a field: a workload parameter's name ("cores"), else its key with dashes ("chip-clocks-divisor", "overrides-json"). */
  fieldError(field: string): Locator {
    return this.id(`field-error-${field}`);
  }
  /** The line beside Run that says why it is disabled. */
  get runDisabledReason(): Locator {
    return this.id('run-disabled-reason');
  }
  /** Types into the chip overrides JSON (opening its section). */
  async setOverridesJson(text: string): Promise<void> {
    await this.openDetails('Chip overrides (JSON)');
    await this.id('overrides-json').fill(text);
  }
  /** Chooses a mesh size of the editor (a CHIP_VARIANTS id, e.g. "mesh-16x8" or "scc"). */
  async setMeshSize(id: string): Promise<void> {
    await this.id('chip-variant').selectOption(id);
  }
  /** The timeline's shown boundary: its state (live, snapshot, replaying, replayed, error), time in ps and epoch. */
  async scrubbed(): Promise<{ state: string; timePs: number; epoch: number; text: string }> {
    const el = this.id('scrub-time');
    return {
      state: (await el.getAttribute('data-state')) ?? '',
      timePs: Number(await el.getAttribute('data-time-ps')),
      epoch: Number((await el.getAttribute('data-epoch')) || 'NaN'),
      text: ((await el.textContent()) ?? '').trim(),
    };
  }
  /** Waits until the timeline shows an exact boundary (a recorded snapshot or a finished replay). */
  async expectScrubbedExact(timeout = 60_000): Promise<void> {
    await expect(this.id('scrub-time')).toHaveAttribute('data-state', /^(snapshot|replayed)$/, { timeout });
  }
  /** Steps the timeline `n` epochs back with its button, waiting for each to be exact. */
  async scrubBack(n: number): Promise<void> {
    for (let i = 0; i < n; i++) {
      await this.id('scrub-back').click();
      await this.expectScrubbedExact();
    }
  }
  /** Sets the experiment's stop time (Run settings), ns. */
  async setStopTimeNs(ns: number): Promise<void> {
    await this.openDetails('Run settings');
    await this.id('exp-stop-maxTimeNs').fill(String(ns));
  }
  /** The core inspector's values, by data-testid (inspect-<row>). */
  async inspectorTexts(): Promise<Record<string, string>> {
    const out: Record<string, string> = {};
    for (const el of await this.id('inspector').locator('[data-testid^="inspect-"]').all()) out[(await el.getAttribute('data-testid'))!] = ((await el.textContent()) ?? '').trim();
    return out;
  }
  /** The headline counters' texts, by data-testid. */
  async counterTexts(): Promise<Record<string, string>> {
    const out: Record<string, string> = {};
    for (const el of await this.id('counters').locator('dd').all()) out[(await el.getAttribute('data-testid'))!] = ((await el.textContent()) ?? '').trim();
    return out;
  }
  /** Waits for the notice of the fallback mode (no SharedArrayBuffer: the page is not cross-origin isolated). */
  async fallbackNotice(): Promise<Locator> {
    await expect(this.id('fallback-notice')).toBeVisible();
    return this.id('fallback-notice');
  }
  /** Presses a gallery entry's "Copy embed code" and returns the snippet it shows. */
  async copyEmbedCode(entryId: string): Promise<string> {
    await this.id(`embed-copy-${entryId}`).click();
    await expect(this.id(`embed-code-${entryId}`)).toBeVisible();
    return this.id(`embed-code-${entryId}`).inputValue();
  }
  /** The label beside a shown embed snippet ("Copied:" when the clipboard took it). */
  async embedCodeLabel(entryId: string): Promise<string> {
    return ((await this.page.locator('label', { has: this.id(`embed-code-${entryId}`) }).locator('span').first().textContent()) ?? '').trim();
  }
  /** The page map's totals over all nodes (PageMap.tsx writes them as data attributes), or null while it is not shown. */
  async pageTotals(): Promise<{ valid: number; readOnly: number; readWrite: number; invalid: number; twins: number } | null> {
    const el = this.id('page-map');
    if ((await el.count()) === 0) return null;
    const n = async (a: string) => Number(await el.getAttribute(`data-${a}`));
    return { valid: await n('valid'), readOnly: await n('read-only'), readWrite: await n('read-write'), invalid: await n('invalid'), twins: await n('twins') };
  }
  /** Hovers the page map at node `node`, a fraction `along` (0..1) of its page axis; returns the line naming the page. */
  async hoverPage(node: number, along: number): Promise<string> {
    const c = this.id('canvas-pages');
    await c.scrollIntoViewIfNeeded();
    const g = async (a: string) => Number(await c.getAttribute(`data-${a}`));
    const box = (await c.boundingBox())!;
    const x = box.x + (await g('grid-x')) + along * (await g('grid-w'));
    const y = box.y + (await g('top')) + (node + 0.5) * (await g('row-px'));
    await this.page.mouse.move(x, y);
    await expect(this.id('pages-hover')).toContainText(`node ${node}`);
    return ((await this.id('pages-hover').textContent()) ?? '').trim();
  }
  /** The VM views' numbers (VmViews.tsx writes them as data attributes): baton, routines, one core's heap. */
  async vmViewNumbers(core: number): Promise<{ migrations: number; per1000: number; largest: string; largestCycles: number; timeNs: number; readWrite: number; readMostly: number; allocated: number; moves: number }> {
    const a = async (testId: string, attr: string) => (await this.id(testId).getAttribute(`data-${attr}`)) ?? '';
    const n = async (testId: string, attr: string) => Number(await a(testId, attr));
    const cell = `vm-heap-core-${core}`;
    return {
      migrations: await n('vm-baton', 'migrations'),
      per1000: await n('vm-baton', 'per-1000-bytecodes'),
      largest: await a('vm-routines', 'largest'),
      largestCycles: await n('vm-routines', 'largest-cycles'),
      timeNs: await n('vm-routines', 'time-ns'),
      readWrite: await n(cell, 'read-write-bytes'),
      readMostly: await n(cell, 'read-mostly-bytes'),
      allocated: await n(cell, 'allocated-bytes'),
      moves: await n('vm-heap-map', 'moves'),
    };
  }
  /** The DSM views' numbers (DsmViews.tsx writes them as data attributes): timeline lanes, one processor's ps per kind, the notice matrix, the Table 3/4 rows. */
  async dsmViewNumbers(proc: number): Promise<{ lanes: number; kindPs: Record<string, number>; notices: number; messages: number; byType: Record<string, number>; table: { metric: string; lab: number; paper: string; ratio: string }[] }> {
    const a = async (testId: string, attr: string) => (await this.id(testId).getAttribute(`data-${attr}`)) ?? '';
    const kindPs: Record<string, number> = {};
    for (const k of ['compute', 'fault', 'lock', 'barrier', 'serve']) kindPs[k] = Number(await a(`dsm-timeline-proc-${proc}`, `${k}-ps`));
    const byType: Record<string, number> = {};
    for (const el of await this.page.locator('[data-testid^="dsm-messages-"]').all()) byType[(await el.getAttribute('data-name')) ?? ''] = Number(await el.getAttribute('data-messages'));
    const table: { metric: string; lab: number; paper: string; ratio: string }[] = [];
    for (const tr of await this.page.locator('[data-testid^="dsm-paper-row-"]').all())
      table.push({ metric: (await tr.getAttribute('data-metric')) ?? '', lab: Number(await tr.getAttribute('data-lab')), paper: (await tr.getAttribute('data-paper')) ?? '', ratio: (await tr.getAttribute('data-ratio')) ?? '' });
    return { lanes: Number(await a('dsm-timeline', 'lanes')), kindPs, notices: Number(await a('dsm-notices', 'total')), messages: Number(await a('dsm-notices', 'messages')), byType, table };
  }
  /** The object-by-object heap map (VmViews.tsx ObjectMapCard's data attributes): the slider's step, the moves, the arrows drawn ("Class:from>to"), the colouring. */
  async objectMapState(): Promise<{ step: number; moves: number; arrows: string[]; colourBy: string; columns: number }> {
    const el = this.id('vm-object-map');
    const a = async (k: string) => (await el.getAttribute(`data-${k}`)) ?? '';
    return { step: Number(await a('step')), moves: Number(await a('moves')), arrows: (await a('arrows')).split(' ').filter(Boolean), colourBy: await a('colour-by'), columns: Number(await a('columns')) };
  }
  /** Moves the object map's time slider to `step` (0: no move yet). */
  async setObjectMapStep(step: number): Promise<void> {
    await this.id('vm-object-map-slider').fill(String(step));
    await expect(this.id('vm-object-map')).toHaveAttribute('data-step', String(step));
  }
  /** A hash of the object map canvas's pixels (to tell two drawings apart). */
  async objectMapPixels(): Promise<string> {
    return this.id('canvas-vm-object-map').evaluate((c) => {
      const url = (c as unknown as { toDataURL(): string }).toDataURL();
      let h = 2166136261;
      for (let i = 0; i < url.length; i++) h = Math.imul(h ^ url.charCodeAt(i), 16777619);
      return `${url.length}:${(h >>> 0).toString(16)}`;
    });
  }
  /** Hovers cell `cell` of column `column`'s read-write heap or read-mostly slice (geometry of VmViews.tsx objectLayout) and returns the tooltip's text. */
  async hoverObjectCell(column: number, region: 'readWrite' | 'readMostly', cell: number, cells = 256): Promise<string> {
    const c = this.id('canvas-vm-object-map');
    await c.scrollIntoViewIfNeeded();
    const box = (await c.boundingBox())!;
    const { columns } = await this.objectMapState();
    const cellPx = Math.max(1, Math.min(2, 256 / cells));
    const colW = Math.max(2, (box.width - 64 - 10) / Math.max(1, columns));
    const top = region === 'readWrite' ? 20 : 20 + cells * cellPx + 34;
    await this.page.mouse.move(box.x + 64 + (column + 0.5) * colW, box.y + top + (cell + 0.5) * cellPx);
    await expect(this.id('vm-object-map-tooltip')).toBeVisible();
    return ((await this.id('vm-object-map-tooltip').textContent()) ?? '').trim();
  }
  /** The lab's worker layout line ("1024 workers, one per core", "2 workers × 512 cores (auto, 2 CPUs)"). */
  async workerLayoutText(): Promise<string> {
    return ((await this.id('worker-layout-text').textContent()) ?? '').trim();
  }
  /** Clicks the worker layout line's "fit to N CPUs" link (back to the auto layout). */
  async fitWorkersToCpus(): Promise<void> {
    await this.id('auto-workers').click();
  }
  /** Picks the TILE64 and the vm workload with these parameters (the VM specs' common set-up); the form must accept them. */
  async setUpVm(p: { cores: number; replication: string; benchmark: string; size: number }): Promise<void> {
    await this.setPreset('tile64');
    await this.setWorkload('vm');
    await this.setParam('cores', p.cores);
    await this.selectParam('replication', p.replication);
    await this.selectParam('benchmark', p.benchmark);
    await this.setParam('size', p.size);
    await expect(this.id('validation-errors')).toHaveCount(0);
  }
}
