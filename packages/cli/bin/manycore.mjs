#!/usr/bin/env node
// `npx manycore` / `npm exec manycore`: the bin npm links at install time. It exists before
// the build (npm links bins whose target exists), and runs the bundled CLI that `npm install`
// builds (the root `prepare` script) into ../dist.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const bundle = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'manycore.mjs');
if (!existsSync(bundle)) {
  process.stderr.write('manycore: the CLI is not built yet; run `npm run build:node` (npm install does it) in the repository first.\n');
  process.exit(2);
}
await import(pathToFileURL(bundle).href);
