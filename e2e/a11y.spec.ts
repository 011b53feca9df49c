/**
 * Accessibility checks with axe-core: no serious or critical violation on the lab page (before
 * and after a run), the compare page and the guided-experiments gallery, in the light and the
 * dark theme (and the high-contrast one on the lab page).
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { LabPage } from './lab-page';

/** The serious and critical violations axe finds on the page, one line each (rule, impact, where, why). */
async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.slice(0, 5).map((n) => `${v.id} (${v.impact}): ${n.target.join(' ')}: ${n.failureSummary?.replace(/\s+/g, ' ') ?? v.help}`));
}

for (const theme of ['light', 'dark'] as const) {
  test(`axe: no serious or critical violations on the lab, compare and gallery pages (${theme})`, async ({ page }) => {
    const lab = new LabPage(page);
    await lab.goto();
    await lab.setTheme(theme);
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
    await lab.expectStatus('ready');
    expect.soft(await seriousViolations(page), 'lab page before a run').toEqual([]);

    await lab.run();
    await lab.expectStatus('finished', 60_000);
    await lab.waitForDigest();
    // the data tables open too
    await lab.openDetails('Data table');
    expect.soft(await seriousViolations(page), 'lab page after a run').toEqual([]);

    await lab.id('tab-compare').click();
    await expect(lab.id('compare')).toBeVisible();
    expect.soft(await seriousViolations(page), 'compare page').toEqual([]);

    await lab.id('tab-gallery').click();
    await expect(lab.id('gallery')).toBeVisible();
    expect.soft(await seriousViolations(page), 'gallery page').toEqual([]);
  });
}

test('axe: the lab page in high contrast and at 200 % text has no serious or critical violations', async ({ page }) => {
  const lab = new LabPage(page);
  await lab.goto();
  await lab.setTheme('contrast');
  await lab.setTextSize(200);
  expect.soft(await seriousViolations(page), 'lab page, high contrast, 200 %').toEqual([]);
});
