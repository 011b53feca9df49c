/**
 * The CLI's version (`manycore --version`): the package version (packages/cli/package.json; a
 * test keeps the two equal) with the experiment schema and link formats it reads.
 */
import { EXPERIMENT_VERSION } from '@manycore/engine';

export const VERSION = '0.1.0';

export function versionText(): string {
  return `manycore ${VERSION} (experiment schema version ${EXPERIMENT_VERSION})\n`;
}
