import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import svelte from 'eslint-plugin-svelte';
import globals from 'globals';
import svelteConfig from './svelte.config.js';

/**
 * Layering, as the design says: 'electron' only in src/main/platform, src/main/index.ts and
 * src/preload; nothing from Node in the renderer or in src/shared.
 */
/** Test helpers (`*.test-kit.ts`) live beside the code they serve, but no shipped code may use one. */
const testKitPattern = {
  group: ['**/*.test-kit', '**/*.test-kit.ts', '**/*.test-kit.js'],
  message: 'A test kit is for tests: shipped code may not import it.',
};
const electronBan = {
  paths: [
    { name: 'electron', message: 'Electron belongs in src/main/platform, src/main/index.ts or src/preload.' },
  ],
  patterns: [testKitPattern],
};
const nodeBan = {
  paths: [{ name: 'electron', message: 'The renderer and shared code must not use Electron.' }],
  patterns: [
    { group: ['node:*'], message: 'The renderer and shared code run without Node.' },
    {
      group: [
        'fs',
        'path',
        'os',
        'child_process',
        'crypto',
        'http',
        'https',
        'net',
        'stream',
        'url',
        'util',
        'events',
      ],
      message: 'The renderer and shared code run without Node.',
    },
    {
      group: ['**/main/**', '**/preload/**'],
      message: 'The renderer and shared code may not reach into main or preload.',
    },
    testKitPattern,
  ],
};

/**
 * One way into the database (issue #34): only src/main/core/library holds the better-sqlite3
 * connection and runs SQL; everything else goes through its stores and facades
 * (LibraryDatabase, Library, Glossaries). Tests, test kits and benches are exempt: they build
 * and break fixtures on a connection.
 */
const databaseMessage =
  'Only src/main/core/library talks to the database: use LibraryDatabase, the Library or a store there.';
const databaseBanPaths = [{ name: 'better-sqlite3', message: databaseMessage }];
const databaseBanPatterns = [
  { group: ['**/library/db'], message: databaseMessage },
  {
    group: ['**/library/database'],
    importNames: ['Db', 'openDatabase', 'migrate', 'inWriteTransaction'],
    message: databaseMessage,
  },
];
const withDatabaseBan = (ban) => ({
  paths: [...(ban.paths ?? []), ...databaseBanPaths],
  patterns: [...ban.patterns, ...databaseBanPatterns],
});
const sqlOutsideTheLibrary = [
  { selector: "CallExpression[callee.property.name='prepare']", message: databaseMessage },
  {
    // A connection's exec takes SQL text; a RegExp's exec (the usual one) takes a variable.
    selector:
      "CallExpression[callee.property.name='exec'][arguments.0.type=/^(Literal|TemplateLiteral)$/]:not([callee.object.regex])",
    message: databaseMessage,
  },
  { selector: "CallExpression[callee.property.name='pragma']", message: databaseMessage },
  { selector: "MemberExpression[property.name='connectionOf']", message: databaseMessage },
];
const notShipped = ['**/*.test.ts', '**/*.test-kit.ts'];

export default tseslint.config(
  {
    ignores: [
      'out/**',
      'dist/**',
      'node_modules/**',
      'test-results/**',
      'playwright-report/**',
      'test/lint-fixtures/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  ...svelte.configs.recommended,
  {
    languageOptions: {
      parserOptions: {
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
        extraFileExtensions: ['.svelte'],
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-imports': ['error', electronBan],
    },
  },
  {
    files: ['**/*.svelte', '**/*.svelte.ts'],
    languageOptions: {
      parserOptions: { parser: tseslint.parser, svelteConfig },
    },
  },
  {
    files: ['src/main/platform/**', 'src/main/index.ts', 'src/preload/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [testKitPattern] }] },
  },
  {
    files: [
      'src/main/**/*.test.ts',
      'src/web-host/**/*.test.ts',
      'src/**/*.test-kit.ts',
      'test/**/*.test.ts',
      'test/**/*.test-kit.ts',
      'scripts/**/*.test.ts',
    ],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    // Benches never ship, and drive the code as tests do (the fake clock ticks a recording's seconds).
    files: ['bench/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: electronBan.paths }] },
  },
  {
    files: ['src/main/**', 'src/web-host/**'],
    ignores: ['src/main/core/library/**', 'src/main/platform/**', 'src/main/index.ts', ...notShipped],
    rules: {
      'no-restricted-imports': ['error', withDatabaseBan(electronBan)],
      'no-restricted-syntax': ['error', ...sqlOutsideTheLibrary],
    },
  },
  {
    files: ['src/main/platform/**', 'src/main/index.ts', 'src/preload/**'],
    ignores: notShipped,
    rules: {
      'no-restricted-imports': ['error', withDatabaseBan({ patterns: [testKitPattern] })],
      'no-restricted-syntax': ['error', ...sqlOutsideTheLibrary],
    },
  },
  {
    files: ['src/renderer/**', 'src/shared/**'],
    languageOptions: { globals: globals.browser },
    rules: { 'no-restricted-imports': ['error', nodeBan] },
  },
  {
    // Their tests and test kits still run without Node, and may use test kits.
    files: ['src/{renderer,shared}/**/*.test.ts', 'src/{renderer,shared}/**/*.test-kit.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { ...nodeBan, patterns: nodeBan.patterns.filter((pattern) => pattern !== testKitPattern) },
      ],
    },
  },
  {
    files: [
      'src/main/**',
      'src/web-host/**',
      'src/preload/**',
      'test/**',
      'scripts/**',
      'bench/**',
      '*.config.*',
    ],
    languageOptions: { globals: globals.node },
  },
  {
    // The web host's page side: the renderer's rules (no Node, no main), in a browser.
    files: ['src/web-host/bridge.ts'],
    languageOptions: { globals: globals.browser },
    rules: { 'no-restricted-imports': ['error', nodeBan] },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    extends: [tseslint.configs.disableTypeChecked],
  },
  {
    files: ['**/*.test.ts', '**/*.test-kit.ts', 'test/**'],
    rules: {
      '@typescript-eslint/unbound-method': 'off',
      '@typescript-eslint/require-await': 'off',
    },
  },
);
