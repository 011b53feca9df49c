/**
 * The lab from the keyboard and on a projector: Space and S wherever focus is (not pressing the
 * focused button), the chip view driven by arrows, Enter and Escape, themes and text sizes that
 * are applied, remembered and keep the chip view and the run controls on screen.
 */
import { expect, test, type Locator } from '@playwright/test';
import { LabPage } from './lab-page';

/** 1 µs of simulated time per second: the default experiment runs for seconds, long enough to toggle. */
const SLOW = 1e3;

async function box(l: Locator): Promise<{ x: number; y: number; width: number; height: number }> {
  const b = await l.boundingBox();
  expect(b, 'element has a box').not.toBeNull();
  return b!;
}

test('after clicking any button, Space still runs and pauses the run and does not press the button', async ({ page }) => {
  const lab = new LabPage(page);
  await lab.goto();
  await lab.setSpeed(SLOW);
  // a what-if change before the run gives the timeline a "remove" button to click
  await lab.id('island-divisor-0').selectOption({ index: 1 });
  await lab.id('island-divisor-1').selectOption({ index: 1 });
  await expect(lab.id('timeline-event')).toHaveCount(2);

  // Run (mouse), then Space pauses: had Space pressed the focused Run (now Pause) button too, it would toggle twice
  await lab.run();
  await lab.expectStatus('running');
  await expect(lab.id('run')).toBeFocused();
  await page.keyboard.press('Space');
  await lab.expectStatus('paused');
  await page.keyboard.press('Space');
  await lab.expectStatus('running');

  // the Run button now reads Pause: click it, then Space resumes
  await lab.run();
  await lab.expectStatus('paused');
  await page.keyboard.press('Space');
  await lab.expectStatus('running');
  await page.keyboard.press('Space');
  await lab.expectStatus('paused');

  // Step focused: Space runs (a pressed Step would leave it paused one epoch later)
  await lab.step();
  await lab.expectStatus('paused');
  await expect(lab.id('step')).toBeFocused();
  const epoch = await lab.epoch();
  await page.keyboard.press('Space');
  await lab.expectStatus('running');
  await page.keyboard.press('Space');
  await lab.expectStatus('paused');
  // the epoch in flight when Space paused still lands: read the count once the engine holds
  await lab.expectEngineHeld();
  // S steps wherever focus is: one epoch
  const before = await lab.epoch();
  expect(before).toBeGreaterThanOrEqual(epoch);
  await page.keyboard.press('s');
  await expect.poll(() => lab.epoch()).toBe(before + 1);
  await lab.expectStatus('paused');

  // Copy link, a tab, the timeline's "remove": each clicked, then Space toggles the run
  const buttons: [string, Locator][] = [
    ['Copy link', lab.id('copy-link')],
    ['the Lab tab', lab.id('tab-lab')],
    ['Compare as A', lab.id('use-as-a')],
  ];
  let running = false;
  for (const [name, b] of buttons) {
    await b.click();
    await expect(b, `${name} has the focus`).toBeFocused();
    await page.keyboard.press('Space');
    running = !running;
    await lab.expectStatus(running ? 'running' : 'paused');
  }
  expect(page.url()).toContain('#');
  // the share-url text field keeps Space for typing (it is read-only: nothing changes, the run neither)
  await lab.id('share-url').focus();
  await page.keyboard.press('Space');
  await page.waitForTimeout(300);
  await lab.expectStatus(running ? 'running' : 'paused');
  if (running) {
    await page.keyboard.press('Escape');
    await lab.id('tab-lab').focus();
    await page.keyboard.press('Space');
    await lab.expectStatus('paused');
  }
  // Enter still presses a focused button: Enter on Step steps
  await lab.expectEngineHeld();
  const e0 = await lab.epoch();
  await lab.id('step').focus();
  await page.keyboard.press('Enter');
  await expect.poll(() => lab.epoch()).toBe(e0 + 1);

  // after Reset the what-if "remove" button is back (the run's changes merged into the timeline)
  await lab.reset();
  await lab.expectStatus('ready');
  const remove = page.getByRole('button', { name: 'Remove this change' }).first();
  await remove.click();
  await expect(lab.id('timeline-event')).toHaveCount(1);
  await page.keyboard.press('Space');
  await lab.expectStatus('running');
  await page.keyboard.press('Space');
  await lab.expectStatus('paused');
});

test('the chip view is driven from the keyboard: arrows move, Enter inspects, Escape closes', async ({ page }) => {
  const lab = new LabPage(page);
  await lab.goto();
  await lab.focusChip();
  // SCC: 6x4 tiles, two cores each; from no core, the first arrow goes to core 0
  await page.keyboard.press('ArrowRight'); // core 0
  await expect(lab.id('chip-cursor')).toHaveAttribute('data-core', '0');
  await page.keyboard.press('ArrowRight'); // 1
  await page.keyboard.press('ArrowRight'); // 2: the next tile
  await page.keyboard.press('ArrowDown'); // 14: the same core of the tile below
  await expect(lab.id('chip-cursor')).toHaveAttribute('data-core', '14');
  await expect(lab.id('chip-cursor')).toContainText('Core 14 · tile 7 (1,1)');
  await expect(lab.id('inspector')).toHaveCount(0);
  await page.keyboard.press('Enter');
  await expect(lab.id('inspector')).toBeVisible();
  await expect(lab.id('inspector').locator('h3')).toHaveText('Core 14');
  // with the inspector open it follows the cursor
  await page.keyboard.press('ArrowLeft');
  await expect(lab.id('inspector').locator('h3')).toHaveText('Core 13');
  await page.keyboard.press('Escape');
  await expect(lab.id('inspector')).toHaveCount(0);
  await expect(lab.id('canvas-chip')).toBeFocused();
  // Escape from inside the inspector closes it too and gives the chip view the focus back
  await page.keyboard.press('Enter');
  await expect(lab.id('inspector').locator('h3')).toHaveText('Core 13');
  await lab.id('inspector-close').focus();
  await page.keyboard.press('Escape');
  await expect(lab.id('inspector')).toHaveCount(0);
  await expect(lab.id('canvas-chip')).toBeFocused();
  // Space on the focused chip view runs
  await lab.setSpeed(SLOW);
  await lab.focusChip();
  await page.keyboard.press('Space');
  await lab.expectStatus('running');
  await page.keyboard.press('Space');
  await lab.expectStatus('paused');
});

test('dark theme and 150 % text at 1280x720 keep the chip view and the run controls on screen', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  const lab = new LabPage(page);
  await lab.goto();
  await lab.setTheme('light');
  const lightBg = await lab.computed('body', 'background-color');
  const lightCard = await lab.computed('[data-testid="view-chip"]', 'background-color');
  const lightFont = parseFloat(await lab.computed('html', 'font-size'));

  await lab.setTheme('dark');
  await lab.setTextSize(150);
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  const darkBg = await lab.computed('body', 'background-color');
  expect(darkBg).not.toBe(lightBg);
  expect(await lab.computed('[data-testid="view-chip"]', 'background-color')).not.toBe(lightCard);
  expect(parseFloat(await lab.computed('html', 'font-size'))).toBeCloseTo(lightFont * 1.5, 1);
  // the canvas is drawn in the theme too: its corner pixel is the dark canvas colour, not white
  type Canvas = { getContext(k: '2d'): { getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray } } };
  const corner: number[] = await lab.id('canvas-chip').evaluate((c) => Array.from((c as unknown as Canvas).getContext('2d').getImageData(2, 2, 1, 1).data.slice(0, 3)));
  expect(corner[0]! + corner[1]! + corner[2]!).toBeLessThan(200);

  // on screen at the top of the page, without scrolling
  await page.evaluate(() => (globalThis as unknown as { scrollTo(x: number, y: number): void }).scrollTo(0, 0));
  await page.waitForTimeout(300);
  const vp = page.viewportSize()!;
  const inView = async (name: string, l: Locator) => {
    const b = await box(l);
    expect(b.y, `${name} top`).toBeGreaterThanOrEqual(0);
    expect(b.x, `${name} left`).toBeGreaterThanOrEqual(0);
    expect(b.y + b.height, `${name} bottom`).toBeLessThanOrEqual(vp.height);
    expect(b.x + b.width, `${name} right`).toBeLessThanOrEqual(vp.width);
    return b;
  };
  const controls = await inView('run controls', lab.id('controls'));
  await inView('Run button', lab.id('run'));
  const chip = await inView('chip view', lab.id('canvas-chip'));
  // side by side or one above the other, not overlapping
  const apart = chip.x >= controls.x + controls.width - 1 || chip.y >= controls.y + controls.height - 1;
  expect(apart, 'the chip view does not cover the controls').toBe(true);
  expect(chip.height).toBeGreaterThan(300);
  // core labels at least the minimum readable size: the canvas is at least 0.45 CSS px per world unit (SCC core labels 16 units and up)
  const worldW = Number(await lab.id('canvas-chip').getAttribute('data-world-width'));
  expect(chip.width / worldW).toBeGreaterThan(0.45);
  await lab.shot('projector-dark-150');

  // remembered after a reload; a stored value the lab does not know is ignored
  await lab.goto();
  await expect(lab.id('theme')).toHaveValue('dark');
  await expect(lab.id('text-size')).toHaveValue('150');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await page.evaluate(() => {
    const store = (globalThis as unknown as { localStorage: { setItem(k: string, v: string): void } }).localStorage;
    store.setItem('manycore.theme', 'neon');
    store.setItem('manycore.textSize', '999');
  });
  await lab.goto();
  await expect(lab.id('theme')).toHaveValue('system');
  await expect(lab.id('text-size')).toHaveValue('100');
});

test('the system colour scheme picks the theme until one is chosen; high contrast applies', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  const lab = new LabPage(page);
  await lab.goto();
  await lab.setTheme('system');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
  await lab.setTheme('contrast');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'contrast');
  expect(await lab.computed('body', 'background-color')).toBe('rgb(0, 0, 0)');
  expect(await lab.computed('body', 'color')).toBe('rgb(255, 255, 255)');
});
