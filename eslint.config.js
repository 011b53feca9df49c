// One lint config for the repository. Besides the usual TypeScript rules it enforces the
// direction of dependencies: engine <- workloads <- workers <- apps/web, with the CLI a
// sibling driver; the engine and workloads stay free of DOM, Node, React and D3. The CLI and the
// web app reach the other workspaces only through their package names (package.json exports),
// and inside the engine each chip family (src/chips/<family>/) stays independent of the others.
import { statSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import tseslint from 'typescript-eslint';

const repoRoot = dirname(fileURLToPath(import.meta.url));
const chipsDir = resolve(repoRoot, 'packages/engine/src/chips');

/** The chip family a path lies in (packages/engine/src/chips/<family>/...), or undefined. */
function chipFamilyOf(path, { isFile }) {
  const rel = relative(chipsDir, path);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return undefined;
  const [first, ...rest] = rel.split(sep);
  if (rest.length > 0) return first;
  if (isFile) return undefined; // a file directly in chips/ (family.ts, registry.ts): shared, no family
  // `../tile64` may name the family folder (its index) or a sibling module `chips/tile64.ts`
  try {
    return statSync(path).isDirectory() ? first : undefined;
  } catch {
    return undefined;
  }
}

/** Local rules: the chip families stay independent of each other. */
const manycore = {
  meta: { name: 'manycore-local' },
  rules: {
    'no-cross-family-import': {
      meta: {
        type: 'problem',
        docs: { description: 'a chip family (packages/engine/src/chips/<family>/) must not import another family' },
        schema: [],
        messages: {
          crossFamily: "chip family '{{from}}' must not import chip family '{{to}}' ({{specifier}}); share code through the engine's generic modules",
        },
      },
      create(context) {
        const filename = context.filename ?? context.getFilename();
        const from = chipFamilyOf(resolve(filename), { isFile: true });
        if (!from) return {};
        const dir = dirname(resolve(filename));
        const check = (node) => {
          if (!node) return;
          let specifier;
          if (node.type === 'Literal' && typeof node.value === 'string') specifier = node.value;
          else if (node.type === 'TemplateLiteral' && node.expressions.length === 0) specifier = node.quasis[0].value.cooked;
          else if (node.type === 'TSLiteralType') return check(node.literal);
          if (typeof specifier !== 'string' || !(specifier === '.' || specifier === '..' || specifier.startsWith('./') || specifier.startsWith('../'))) return;
          const to = chipFamilyOf(resolve(dir, specifier), { isFile: false });
          if (to && to !== from) context.report({ node, messageId: 'crossFamily', data: { from, to, specifier } });
        };
        return {
          ImportDeclaration: (node) => check(node.source),
          ExportNamedDeclaration: (node) => check(node.source),
          ExportAllDeclaration: (node) => check(node.source),
          ImportExpression: (node) => check(node.source),
          TSImportType: (node) => check(node.argument),
          TSExternalModuleReference: (node) => check(node.expression),
        };
      },
    },
  },
};

const noHostApis = [
  { group: ['node:*', 'fs', 'path', 'os', 'worker_threads', 'child_process'], message: 'the engine and workloads are host-free: no Node APIs' },
  { group: ['react', 'react-dom', 'react/*', 'd3', 'd3-*'], message: 'React and D3 live in apps/web only' },
];

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'test-results/**', 'e2e/artifacts/**', 'playwright-report/**', '**/*.d.ts'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-globals': 'off',
    },
  },
  {
    files: ['packages/engine/src/**/*.ts'],
    ignores: ['packages/engine/src/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...noHostApis,
            { group: ['@manycore/workloads', '@manycore/workers', '@manycore/web', '@manycore/cli', '**/workloads/**', '**/workers/**', '**/apps/**', '**/cli/**'], message: 'the engine depends on nothing of ours' },
          ],
        },
      ],
      'no-restricted-properties': [
        'error',
        { object: 'Math', property: 'random', message: 'simulated code is deterministic: use the seeded rng (rng.ts)' },
        { object: 'Date', property: 'now', message: 'no wall clock in simulated code' },
        { object: 'performance', property: 'now', message: 'no wall clock in simulated code' },
      ],
    },
  },
  {
    files: ['packages/workloads/src/**/*.ts'],
    ignores: ['packages/workloads/src/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...noHostApis,
            { group: ['@manycore/workers', '@manycore/web', '@manycore/cli', '**/workers/**', '**/apps/**', '**/cli/**', '**/engine/src/**'], message: 'workloads depend on the engine package only (import from @manycore/engine)' },
          ],
        },
      ],
      'no-restricted-properties': [
        'error',
        { object: 'Math', property: 'random', message: 'use core.rng (seeded)' },
        { object: 'Date', property: 'now', message: 'no wall clock in simulated code' },
        { object: 'performance', property: 'now', message: 'no wall clock in simulated code' },
      ],
      'no-restricted-syntax': ['error', { selector: "NewExpression[callee.name='Date']", message: 'no wall clock in simulated code' }],
    },
  },
  {
    files: ['workers/**/*.ts'],
    ignores: ['workers/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['@manycore/web', '@manycore/cli', '**/apps/**', '**/cli/**', 'react', 'd3'], message: 'workers are thin host adapters below the apps' }] },
      ],
    },
  },
  {
    files: ['packages/cli/src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['@manycore/web', '**/apps/**', 'react', 'd3'], message: 'the CLI is a sibling driver of the web app' },
            {
              // `**/workers/**` would also match `@manycore/workers/node-host`: the negation lets the package through
              group: ['../../*', '../../**', '**/packages/**', '**/workers/**', '**/engine/src/**', '**/workloads/src/**', '!@manycore/workers/*'],
              message: 'the CLI imports other workspaces through their declared packages (@manycore/engine, @manycore/workloads, @manycore/workers/node-host): no relative paths into packages/ or workers/, no deep imports of src/',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['@manycore/cli', '@manycore/cli/*'], message: 'the web app is a sibling driver of the CLI' },
            {
              group: ['../../../*', '../../../**', '**/packages/**', '**/workers/**', '**/engine/src/**', '**/workloads/src/**', '**/cli/src/**', '!@manycore/workers/*'],
              message: 'apps/web imports other workspaces through their declared packages (@manycore/engine, @manycore/workloads, @manycore/workers/*): no relative paths out of apps/web, no deep imports of src/',
            },
          ],
        },
      ],
    },
  },
  {
    // each chip family (packages/engine/src/chips/<family>/) stands alone; tests included
    files: ['packages/engine/src/**/*.ts'],
    plugins: { manycore },
    rules: { 'manycore/no-cross-family-import': 'error' },
  },
);
