/** Help for newcomers: the first-visit tour (skippable, reopened from the header) and the glossary. */
import { expect, test } from '@playwright/test';
import { LabPage } from './lab-page';

test('the first-visit tour walks through the lab, can be skipped, and reopens from the header', async ({ page }) => {
  const lab = new LabPage(page);
  await lab.goto('/', { tour: true });
  await expect(lab.id('tour')).toBeVisible();
  await expect(lab.id('tour-count')).toHaveText('Tour 1 of 6');
  await expect(page.locator('[data-testid="editor"].tour-target')).toHaveCount(1);
  // not modal: the lab runs while the tour is open
  await lab.id('tour-next').click();
  await expect(lab.id('tour-title')).toHaveText('Run, pause, step');
  await expect(page.locator('[data-testid="controls"].tour-target')).toHaveCount(1);
  await expect(page.locator('[data-testid="editor"].tour-target')).toHaveCount(0);
  await lab.id('tour-back').click();
  await expect(lab.id('tour-count')).toHaveText('Tour 1 of 6');
  await lab.id('tour-skip').click();
  await expect(lab.id('tour')).toHaveCount(0);
  // skipped for good: a new visit does not open it
  await page.reload();
  await expect(lab.id('editor')).toBeVisible();
  await expect(lab.id('tour')).toHaveCount(0);
  // reopened from the header (from any tab), and Done on the last step closes it
  await lab.id('tab-gallery').click();
  await lab.id('tour-open').click();
  await expect(lab.id('tour-count')).toHaveText('Tour 1 of 6');
  for (let i = 1; i < 6; i++) await lab.id('tour-next').click();
  await expect(lab.id('tour-count')).toHaveText('Tour 6 of 6');
  await expect(lab.id('tour-next')).toHaveCount(0);
  await lab.id('tour-done').click();
  await expect(lab.id('tour')).toHaveCount(0);
});

test('glossary terms explain themselves on hover and focus, and the glossary lists them all', async ({ page }) => {
  const lab = new LabPage(page);
  await lab.goto();
  const term = lab.id('term-divisor').first();
  const tip = term.getByRole('tooltip');
  await expect(tip).toBeHidden();
  await term.hover();
  await expect(tip).toBeVisible();
  await expect(tip).toContainText('a larger divisor is a slower clock');
  await page.mouse.move(0, 0);
  await expect(tip).toBeHidden();
  await term.focus(); // from the keyboard too
  await expect(tip).toBeVisible();
  await lab.id('glossary-open').click();
  const glossary = lab.id('glossary');
  await expect(glossary).toBeVisible();
  for (const t of ['MPB', 'flit', 'epoch', 'quantum', 'divisor', 'LUT', 'homing', 'write notice']) await expect(glossary.locator('dt', { hasText: new RegExp(`^${t}$`) })).toHaveCount(1);
  await lab.id('glossary-close').click();
  await expect(glossary).toHaveCount(0);
});
