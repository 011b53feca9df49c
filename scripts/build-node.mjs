// Bundles the Node entry points (CLI and its worker) with esbuild into packages/cli/dist.
// Generated output; not in git. Run by `npm install` (prepare), `npm test` and `npm start`.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const common = { bundle: true, platform: 'node', format: 'esm', target: 'node20', sourcemap: true, minify: true, keepNames: true, logLevel: 'warning' };
await build({
  ...common,
  entryPoints: { manycore: join(root, 'packages/cli/src/main.ts'), worker: join(root, 'workers/node-worker.ts') },
  outdir: join(root, 'packages/cli/dist'),
  outExtension: { '.js': '.mjs' },
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
});
