/**
 * Errors where they happen: a wrong parameter's message beside its field in plain words, the
 * reason Run is disabled beside Run, overrides JSON that does not parse blocks Run, and a
 * chip of another size adjusts or flags the workload's core count visibly (never silently).
 */
import { expect, test } from '@playwright/test';
import { LabPage } from './lab-page';

test('a wrong parameter shows its message beside the field, and Run says why it is disabled', async ({ page }) => {
  const lab = new LabPage(page);
  await lab.goto();
  await expect(lab.id('workload')).toHaveValue('l1-stream');
  await expect(lab.id('preset')).toHaveValue('scc');
  await expect(lab.runDisabledReason).toHaveCount(0);

  // more cores than the SCC has: the chip-dependent message sits beside the cores field
  await lab.setParam('cores', 100);
  await expect(lab.fieldError('cores')).toHaveText('at most 48: this chip has 48 cores');
  await expect(lab.id('param-cores')).toHaveAttribute('aria-invalid', 'true');
  const describedBy = (await lab.id('param-cores').getAttribute('aria-describedby')) ?? '';
  expect(describedBy.split(' ')).toContain((await lab.fieldError('cores').getAttribute('id'))!);
  // the field and its message are one .field: the message is beside its field, not in a list elsewhere
  await expect(lab.id('editor').locator('.field', { has: lab.id('param-cores') }).getByTestId('field-error-cores')).toBeVisible();
  await expect(lab.id('validation-errors')).toHaveCount(0);
  await expect(lab.id('run')).toBeDisabled();
  await expect(lab.runDisabledReason).toHaveText('Fix 1 problem in the editor: cores');
  await expect(lab.id('run')).toHaveAttribute('aria-describedby', 'run-disabled-reason');

  // a second problem: plain words with the unit, and Run names both fields
  await lab.setParam('bufferBytes', 16);
  await expect(lab.fieldError('bufferBytes')).toHaveText('at least 32 bytes');
  await lab.setParam('cores', 0);
  await expect(lab.fieldError('cores')).toHaveText('at least 1 core');
  await expect(lab.runDisabledReason).toHaveText('Fix 2 problems in the editor: cores, bufferBytes');
  await lab.setParam('bufferBytes', 'lots');
  await expect(lab.fieldError('bufferBytes')).toHaveText('"lots" is not a number');

  // fixed: the messages go, Run is enabled and says nothing
  await lab.setParam('bufferBytes', 8192);
  await lab.setParam('cores', 48);
  await expect(lab.fieldError('cores')).toHaveCount(0);
  await expect(lab.fieldError('bufferBytes')).toHaveCount(0);
  await expect(lab.id('param-cores')).toHaveAttribute('aria-invalid', 'false');
  await expect(lab.runDisabledReason).toHaveCount(0);
  await expect(lab.id('run')).toBeEnabled();

  // a problem of another workload's parameter lands beside it too (memtest's controller on a 4-controller chip)
  await lab.setWorkload('memtest');
  await lab.setParam('controller', 9);
  await expect(lab.fieldError('controller')).toHaveText('at most 3: this chip has 4 memory controllers (0..3)');
  await expect(lab.runDisabledReason).toHaveText('Fix 1 problem in the editor: controller');
});

test('overrides JSON that does not parse blocks Run with its message beside the field', async ({ page }) => {
  const lab = new LabPage(page);
  await lab.goto();
  await expect(lab.id('run')).toBeEnabled();
  await lab.setOverridesJson('{"clocks": {"divisor": 5}');
  await expect(lab.fieldError('overrides-json')).toContainText('not valid JSON: ');
  await expect(lab.fieldError('overrides-json')).toContainText('Run waits until it parses.');
  await expect(lab.id('overrides-json')).toHaveAttribute('aria-invalid', 'true');
  await expect(lab.id('run')).toBeDisabled();
  await expect(lab.runDisabledReason).toHaveText('Fix 1 problem in the editor: chip overrides (JSON)');
  // Space does not start a run of the old overrides either
  await page.locator('h1').click();
  await page.keyboard.press('Space');
  await expect(lab.status).toHaveText('ready');

  // not an object
  await lab.setOverridesJson('[5]');
  await expect(lab.fieldError('overrides-json')).toHaveText('a JSON object is needed, like {"clocks":{"divisor":5}}, not a list. Run waits until it is one.');
  await expect(lab.id('run')).toBeDisabled();

  // valid JSON whose value the chip refuses: beside the overrides too, in plain words
  await lab.setOverridesJson('{"caches": {"l1d": {"sizeBytes": -16}}}');
  await expect(lab.fieldError('overrides-json')).toHaveText('chip.caches.l1d.sizeBytes: more than 0 bytes');
  await expect(lab.id('run')).toBeDisabled();

  // fixed: the run uses the overrides
  await lab.setOverridesJson('{"clocks": {"divisor": 5}}');
  await expect(lab.fieldError('overrides-json')).toHaveCount(0);
  await expect(lab.id('run')).toBeEnabled();
  await expect(lab.runDisabledReason).toHaveCount(0);
  await lab.openDetails('Experiment JSON');
  await expect(lab.id('experiment-json')).toContainText('"divisor": 5');
});

test('a bigger mesh makes an all-cores count follow the chip, and says so; a count it cannot take is flagged', async ({ page }) => {
  const lab = new LabPage(page);
  await lab.goto();
  await expect(lab.id('param-cores')).toHaveValue('48'); // l1-stream on the 48-core SCC: every core
  test.skip(!(await lab.hasOption('chip-variant', 'mesh-16x8')), 'no 16x8 (256-core) mesh size in the editor');

  await lab.setMeshSize('mesh-16x8');
  await expect(lab.id('param-cores')).toHaveValue('256');
  await expect(lab.id('cores-note')).toHaveText(/^cores follows the chip: 48 → 256 \(it used all 48 cores of the previous chip; this one has 256\)\./);
  await expect(lab.id('run')).toBeEnabled();

  // a count below the chip's stays, and the note says how many cores run
  await lab.setParam('cores', 100);
  await lab.setMeshSize('mesh-8x8');
  await expect(lab.id('param-cores')).toHaveValue('100');
  await expect(lab.id('cores-note')).toHaveText(/^cores stays 100: the run uses 100 of this chip's 128 cores\./);

  // back to the SCC: 100 is more than it has, flagged in the note and beside the field (not clamped to 48)
  await lab.setMeshSize('scc');
  await expect(lab.id('param-cores')).toHaveValue('100');
  await expect(lab.id('cores-note')).toHaveText(/^cores=100 needs 100 cores but this chip has 48: lower it \(see the field\)\./);
  await expect(lab.fieldError('cores')).toHaveText('at most 48: this chip has 48 cores');
  await expect(lab.id('run')).toBeDisabled();
  await expect(lab.runDisabledReason).toHaveText('Fix 1 problem in the editor: cores');
});

test('on the compare page, overrides JSON that does not parse blocks "Run A and B" and says which side', async ({ page }) => {
  const lab = new LabPage(page);
  await lab.goto();
  await lab.id('tab-compare').click();
  const a = lab.id('compare-slot-a');
  await a.locator('summary', { hasText: 'Edit A' }).click();
  await a.locator('summary', { hasText: 'Chip overrides (JSON)' }).click();
  await expect(lab.id('compare-run')).toBeEnabled();
  await a.getByTestId('overrides-json').fill('{"clocks": ');
  await expect(a.getByTestId('field-error-overrides-json')).toContainText('not valid JSON: ');
  await expect(lab.id('compare-run')).toBeDisabled();
  await expect(lab.id('compare-run-blocked')).toHaveText('A: Fix 1 problem in the editor: chip overrides (JSON)');
  await a.getByTestId('overrides-json').fill('{}');
  await expect(lab.id('compare-run')).toBeEnabled();
  await expect(lab.id('compare-run-blocked')).toHaveCount(0);
});
