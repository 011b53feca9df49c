import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EXPERIMENT_VERSION } from '@manycore/engine';
import { parseArgs } from './args';
import { VERSION, versionText } from './version';

describe('--version', () => {
  it('is the package version, with the experiment schema version', () => {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(VERSION).toBe(pkg.version);
    expect(versionText()).toBe(`manycore ${pkg.version} (experiment schema version ${EXPERIMENT_VERSION})\n`);
    for (const flag of ['--version', '-V', 'version']) expect(parseArgs([flag])).toEqual({ command: 'version' });
  });
});
