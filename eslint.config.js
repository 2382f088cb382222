import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import svelte from 'eslint-plugin-svelte';
import globals from 'globals';
import svelteConfig from './svelte.config.js';

/**
 * The zones (issue #34): every folder of src/, what of ours it may import, and whether it may
 * use Electron, Node and the database. One row a zone; a more specific row wins over the
 * folder around it (its files are in the outer row's `ignores`). docs/architecture.md,
 * "Layers", says why each line is drawn where it is.
 *
 * `home` is the folder a zone's folder sits in. The rule reads an import as written, not the
 * file it resolves to, so a zone is recognised by its name right after the `./` or `../` that
 * reach its home ('../../ipc/x' from src/main/core/ask/, './ipc/x' from src/main/index.ts), or
 * by its home and name from elsewhere ('../main/ipc/x' from src/web-host/). So a zone's name
 * is used by no folder inside another zone of the same home (`npm run lint` would flag the
 * import that met one).
 */
// prettier-ignore
const zones = [
  // name           home            path          files (a more specific zone is in `ignores`)     may import (of ours)                                       may use
  { name: 'shared',     home: '',  path: 'shared',   files: ['src/shared/**'],                          mayImport: [],                                             node: false },
  { name: 'preload',    home: '',  path: 'preload',  files: ['src/preload/**'],                         mayImport: ['shared'],                                     electron: true },
  { name: 'renderer',   home: '',  path: 'renderer', files: ['src/renderer/**'], ignores: ['src/renderer/src/{lib,stores,components,views}/**'],
                                                                                                        mayImport: ['shared', 'lib', 'stores', 'components', 'views'], node: false },
  { name: 'lib',        home: 'renderer/src', path: 'lib',        files: ['src/renderer/src/lib/**'],        mayImport: ['shared'],                                     node: false },
  { name: 'stores',     home: 'renderer/src', path: 'stores',     files: ['src/renderer/src/stores/**'],     mayImport: ['shared', 'lib'],                              node: false },
  { name: 'components', home: 'renderer/src', path: 'components', files: ['src/renderer/src/components/**'], mayImport: ['shared', 'lib', 'stores'],                    node: false },
  { name: 'views',      home: 'renderer/src', path: 'views',      files: ['src/renderer/src/views/**'],      mayImport: ['shared', 'lib', 'stores', 'components'],      node: false },
  { name: 'base',       home: 'main', path: 'base',     files: ['src/main/base/**'],                      mayImport: ['shared'] },
  { name: 'core',       home: 'main', path: 'core',     files: ['src/main/core/**'], ignores: ['src/main/core/library/**', 'src/main/core/newsroom/**'],
                                                                                                        mayImport: ['shared', 'base'] },
  { name: 'library',    home: 'main', path: null,       files: ['src/main/core/library/**'],              mayImport: ['shared', 'base', 'core'],                     database: true },
  { name: 'newsroom',   home: 'main', path: null,       files: ['src/main/core/newsroom/**'],             mayImport: ['shared', 'base', 'core'],                     newsroom: true },
  { name: 'audio',      home: 'main', path: 'audio',    files: ['src/main/audio/**'],                     mayImport: ['shared', 'base', 'core'] },
  { name: 'ipc',        home: 'main', path: 'ipc',      files: ['src/main/ipc/**'],                       mayImport: ['shared', 'base', 'core'] },
  { name: 'platform',   home: 'main', path: 'platform', files: ['src/main/platform/**'],                  mayImport: ['shared', 'base', 'core', 'audio', 'ipc', 'compose', 'entry'], electron: true },
  { name: 'compose',    home: 'main', path: 'compose',  files: ['src/main/compose.ts'],                   mayImport: ['shared', 'base', 'core'] },
  { name: 'entry',      home: 'main', path: 'index',    files: ['src/main/index.ts'],                     mayImport: ['shared', 'base', 'core', 'audio', 'ipc', 'platform', 'compose'], electron: true },
  { name: 'cli',        home: 'main', path: 'cli',      files: ['src/main/cli/**'],                       mayImport: ['shared', 'base', 'core', 'audio'] },
  { name: 'web-host',   home: '',  path: 'web-host', files: ['src/web-host/**'], ignores: ['src/web-host/bridge.ts'],
                                                                                                        mayImport: ['shared', 'base', 'core', 'ipc', 'compose'] },
  { name: 'web page',   home: '',  path: null,       files: ['src/web-host/bridge.ts'],                  mayImport: ['shared'],                                     node: false },
];
const zoneNamed = new Map(zones.map((zone) => [zone.name, zone]));
const placeOf = (zone) => zone.files[0].replace('/**', '');

/** How an import in `from` reaches `to`, as a regular expression over the import as written. */
function reachPattern(from, to) {
  const name = from.home === to.home ? to.path : `${to.home}/${to.path}`.replace(/^\//, '');
  return `^(\\./|(\\.\\./)+)${name}(/|\\.[cm]?[jt]s$|$)`;
}

/** Test helpers (`*.test-kit.ts`) live beside the code they serve, but no shipped code may use one. */
const testKitPattern = {
  group: ['**/*.test-kit', '**/*.test-kit.ts', '**/*.test-kit.js'],
  message: 'A test kit is for tests: shipped code may not import it.',
};
const electronPath = {
  name: 'electron',
  message: 'Electron belongs in src/main/platform, src/main/index.ts or src/preload.',
};
const nodePatterns = [
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
];
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
/**
 * The newsroom's PostgreSQL (issue #35) has one way in too: only src/main/core/newsroom holds
 * `pg` pools and runs SQL on the server; the CLI and the app call its functions.
 */
const newsroomDatabaseBan = {
  name: 'pg',
  message:
    "Only src/main/core/newsroom talks to the newsroom's PostgreSQL: use its connection and functions.",
};
const notShipped = ['**/*.test.ts', '**/*.test-kit.ts'];

/** A zone's import rules: the zones it may not reach, then Electron, Node, the database, test kits. */
function importRulesOf(zone, { shipped = true } = {}) {
  const allowed = [zone, ...zone.mayImport.map((name) => zoneNamed.get(name))].map(placeOf);
  const allowedText =
    allowed.length === 1 ? allowed[0] : `${allowed.slice(0, -1).join(', ')} and ${allowed.at(-1)}`;
  const message = `Code in ${placeOf(zone)} may import only ${allowedText}: see Layers in docs/architecture.md.`;
  const refused = zones.filter((to) => to.path !== null && to !== zone && !zone.mayImport.includes(to.name));
  const browser = zone.node === false;
  const usesDatabase = zone.database === true || browser;
  return {
    paths: [
      ...(zone.electron
        ? []
        : [
            browser
              ? { name: 'electron', message: 'The renderer and shared code must not use Electron.' }
              : electronPath,
          ]),
      ...(usesDatabase ? [] : databaseBanPaths),
      ...(zone.newsroom ? [] : [newsroomDatabaseBan]),
    ],
    patterns: [
      ...refused.map((to) => ({ regex: reachPattern(zone, to), message })),
      ...(browser ? nodePatterns : []),
      ...(usesDatabase ? [] : databaseBanPatterns),
      ...(shipped ? [testKitPattern] : []),
    ],
  };
}

/** One block a zone, for its shipped files; SQL is refused wherever Node runs but the library. */
const zoneBlocks = zones.map((zone) => ({
  files: zone.files,
  ignores: [...(zone.ignores ?? []), ...notShipped],
  rules: {
    'no-restricted-imports': ['error', importRulesOf(zone)],
    ...(zone.node === false || zone.database
      ? {}
      : { 'no-restricted-syntax': ['error', ...sqlOutsideTheLibrary] }),
  },
}));

/** The browser zones' tests and test kits still run without Node, and may use test kits. */
const browserTestBlocks = zones
  .filter((zone) => zone.node === false)
  .map((zone) => ({
    files: zone.files.map((files) => `${files}/*.{test,test-kit}.ts`),
    ignores: zone.ignores ?? [],
    rules: {
      'no-restricted-imports': ['error', { paths: importRulesOf(zone).paths, patterns: nodePatterns }],
    },
  }));

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
      'no-restricted-imports': ['error', { paths: [electronPath], patterns: [testKitPattern] }],
    },
  },
  {
    files: ['**/*.svelte', '**/*.svelte.ts'],
    languageOptions: {
      parserOptions: { parser: tseslint.parser, svelteConfig },
    },
  },
  ...zoneBlocks,
  {
    // Tests may cross zones (a handler is tested through the composed app) and use test kits.
    files: [
      'src/**/*.test.ts',
      'src/**/*.test-kit.ts',
      'test/**/*.test.ts',
      'test/**/*.test-kit.ts',
      // End-to-end tests and their page objects drive the app from outside and never ship.
      'test/e2e/**/*.ts',
      'scripts/**/*.test.ts',
    ],
    rules: { 'no-restricted-imports': 'off' },
  },
  ...browserTestBlocks,
  {
    // Benches never ship, and drive the code as tests do (the fake clock ticks a recording's seconds).
    files: ['bench/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [electronPath] }] },
  },
  {
    files: ['src/renderer/**', 'src/shared/**'],
    languageOptions: { globals: globals.browser },
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
    // The web host's page side runs in a browser.
    files: ['src/web-host/bridge.ts'],
    languageOptions: { globals: globals.browser },
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
