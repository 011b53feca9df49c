// One lint config for the repository. Besides the usual TypeScript rules it enforces the
// direction of dependencies: engine <- workloads <- workers <- apps/web, with the CLI a
// sibling driver; the engine and workloads stay free of DOM, Node, React and D3.
import tseslint from 'typescript-eslint';

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
      'no-restricted-imports': ['error', { patterns: [{ group: ['@manycore/web', '**/apps/**', 'react', 'd3'], message: 'the CLI is a sibling driver of the web app' }] }],
    },
  },
);
