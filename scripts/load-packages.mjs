// The engine and the workloads for a script that runs experiments inline (dsm-run, dsm-ablations,
// vm-run): bundled with esbuild from the TypeScript sources into a private temporary directory
// (not the shared packages/cli/dist), so a script needs no build step and no lock.
import { build } from 'esbuild';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** { Simulation, workloads }, bundled under a temporary directory named after `name`. */
export async function loadPackages(name) {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..');
  const dir = mkdtempSync(join(tmpdir(), `${name}-`));
  const entry = join(dir, 'entry.ts');
  writeFileSync(
    entry,
    `export { Simulation } from ${JSON.stringify(join(root, 'packages/engine/src/index.ts'))};\nexport { workloads } from ${JSON.stringify(join(root, 'packages/workloads/src/index.ts'))};\n`,
  );
  await build({ entryPoints: [entry], bundle: true, platform: 'node', format: 'esm', target: 'node20', outfile: join(dir, 'bundle.mjs'), logLevel: 'warning' });
  return import(pathToFileURL(join(dir, 'bundle.mjs')).href);
}
