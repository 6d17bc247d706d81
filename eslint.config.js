// Lint rules that keep the design honest (STYLE.md): no wall clock, randomness or bare timers
// outside the clock module and the CLI, so simulations and backtests repeat exactly.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const bannedGlobals = [
  { name: 'setTimeout', message: 'Use the injected Clock (src/core/clock.ts).' },
  { name: 'setInterval', message: 'Use the injected Clock (src/core/clock.ts).' },
  { name: 'setImmediate', message: 'Use the injected Clock (src/core/clock.ts).' },
];
const bannedProperties = [
  { object: 'Date', property: 'now', message: 'Use the injected Clock (src/core/clock.ts).' },
  { object: 'Math', property: 'random', message: 'Use the seeded Rng (src/core/rng.ts).' },
];

export default tseslint.config(
  { ignores: ['node_modules/**', 'coverage/**', 'dist/**', '**/*.min.js'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: { process: 'readonly', console: 'readonly', Buffer: 'readonly', performance: 'readonly' },
    },
    rules: {
      'no-restricted-globals': ['error', ...bannedGlobals],
      'no-restricted-properties': ['error', ...bannedProperties],
      'no-restricted-syntax': [
        'error',
        { selector: "NewExpression[callee.name='Date'][arguments.length=0]", message: 'Use the injected Clock.' },
      ],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // The live clock and the CLI own the wall clock; tests and benchmarks measure real time and
    // drive fake timers, so they may touch it too.
    files: ['src/core/clock.ts', 'src/cli.ts', 'src/cli/**', 'test/**', 'bench/**', 'bin/**', '.ci/**'],
    rules: { 'no-restricted-globals': 'off', 'no-restricted-properties': 'off', 'no-restricted-syntax': 'off' },
  },
  {
    // starknet.js costs every daemon ~4 MB of heap for paths it rarely runs: the sources reach it
    // through the lazy loader (RELIABILITY.md "Lean daemon"); types may be imported freely.
    files: ['src/**/*.ts'],
    // The loader itself, and the slow reference hasher the tests and the signer bench compare against.
    ignores: ['src/exchange/chain/starknet-js.ts', 'src/exchange/signer/reference.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { paths: [{ name: 'starknet', message: 'Use starknetJs() from src/exchange/chain/starknet-js.ts (loaded on first use).', allowTypeImports: true }] },
      ],
    },
  },
  {
    // Scripts inlined into HTML reports run in the browser, with uPlot inlined beside them.
    files: ['src/**/*.client.js'],
    languageOptions: { globals: { window: 'readonly', document: 'readonly', uPlot: 'readonly' } },
  },
);
