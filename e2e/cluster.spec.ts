/**
 * The cluster family in the web lab: the cluster-1999 preset is listed, its chip view draws 32
 * one-core nodes (L2 below each, no controllers, no islands) and cluster-rtt runs to a digest
 * with its four rows.
 */
import { expect, test } from '@playwright/test';
import { LabPage } from './lab-page';

test('cluster-1999: 32 nodes drawn from the family floorplan; cluster-rtt runs', async ({ page }) => {
  const lab = new LabPage(page);
  await lab.goto();
  expect(await lab.hasOption('preset', 'cluster-1999')).toBe(true);
  await lab.setPreset('cluster-1999');
  await expect(lab.id('view-chip')).toContainText('32 cores');
  expect(await lab.floorplan()).toEqual({ cores: 32, tiles: 32, controllers: 0, domains: 0, store: 'L2' });
  await lab.setWorkload('cluster-rtt');
  await expect(lab.id('validation-errors')).toHaveCount(0);
  await lab.run();
  expect(await lab.waitForDigest()).toMatch(/^[0-9a-f]{16}$/);
  await expect(lab.id('results')).toContainText('barrier');
  await expect(lab.id('results')).toContainText('lock, forwarded to the holder');
});
