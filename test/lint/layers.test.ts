import { describe, expect, it } from 'vitest';
import { ESLint } from 'eslint';
import { readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';

/**
 * The layering rules are only worth something if they fire. Lint small pieces of code as if
 * they lived in each layer and check what is refused.
 */
const eslint = new ESLint({ cwd: process.cwd() });

/** Type-aware rules need a real file in the project, so the probe is written, linted, removed. */
async function ruleIdsFor(code: string, probePath: string): Promise<string[]> {
  const filePath = probePath.replace('layer-probe', `layer-probe-${randomBytes(4).toString('hex')}`);
  writeFileSync(filePath, code);
  try {
    const [result] = await eslint.lintFiles([filePath]);
    return (result?.messages ?? []).map((message) => message.ruleId ?? message.message);
  } finally {
    rmSync(filePath, { force: true });
  }
}

/**
 * The composition files are zones of one file each, so a probe cannot sit beside them: lint
 * the probe's text as if it were that file (the file exists, so the project knows it).
 */
async function ruleIdsAsFile(code: string, existingPath: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: existingPath });
  return (result?.messages ?? []).map((message) => message.ruleId ?? message.message);
}

const importing = (specifier: string): string =>
  `import * as imported from '${specifier}';\nexport const used = imported;\n`;

async function ruleIdsForImport(from: string, specifier: string): Promise<string[]> {
  const code = importing(specifier);
  return from.includes('layer-probe') ? ruleIdsFor(code, from) : ruleIdsAsFile(code, from);
}

/** Every direction the zones refuse: [the importing file, the import as written there]. */
const refusedImports: [string, string][] = [
  ['src/shared/layer-probe.ts', '../renderer/src/lib/api'],
  ['src/shared/ipc/layer-probe.ts', '../../main/core/app-services'],
  ['src/renderer/src/layer-probe.ts', '../../main/core/app-core'],
  ['src/renderer/src/layer-probe.ts', '../../web-host/web-host'],
  ['src/renderer/src/layer-probe.ts', '../../preload/index'],
  ['src/renderer/src/lib/layer-probe.ts', '../stores/keymap.svelte'],
  ['src/renderer/src/lib/layer-probe.ts', '../components/confirm-dialog.svelte'],
  ['src/renderer/src/lib/layer-probe.ts', '../views/library-view.svelte'],
  ['src/renderer/src/stores/layer-probe.ts', '../components/confirm-dialog.svelte'],
  ['src/renderer/src/stores/layer-probe.ts', '../views/library-view.svelte'],
  ['src/renderer/src/components/library/layer-probe.ts', '../../views/library-view.svelte'],
  ['src/preload/layer-probe.ts', '../main/ipc/dispatcher'],
  ['src/main/base/layer-probe.ts', '../core/app-core'],
  ['src/main/base/layer-probe.ts', '../ipc/dispatcher'],
  ['src/main/core/layer-probe.ts', '../ipc/dispatcher'],
  ['src/main/core/ask/layer-probe.ts', '../../ipc/dispatcher'],
  ['src/main/core/layer-probe.ts', '../compose'],
  ['src/main/core/layer-probe.ts', '../index'],
  ['src/main/core/layer-probe.ts', '../platform/menu'],
  ['src/main/core/layer-probe.ts', '../audio/native-audio'],
  ['src/main/core/layer-probe.ts', '../cli/run-cli'],
  ['src/main/core/layer-probe.ts', '../../web-host/web-host'],
  ['src/main/core/layer-probe.ts', '../../renderer/src/lib/api'],
  ['src/main/core/library/layer-probe.ts', '../../ipc/dispatcher'],
  ['src/main/audio/layer-probe.ts', '../platform/menu'],
  ['src/main/audio/layer-probe.ts', '../ipc/dispatcher'],
  ['src/main/ipc/layer-probe.ts', '../platform/menu'],
  ['src/main/ipc/layer-probe.ts', '../compose'],
  ['src/main/ipc/layer-probe.ts', '../index'],
  ['src/main/ipc/layer-probe.ts', '../cli/run-cli'],
  ['src/main/ipc/layer-probe.ts', '../../web-host/web-host'],
  ['src/main/platform/layer-probe.ts', '../cli/run-cli'],
  ['src/main/platform/layer-probe.ts', '../../web-host/web-host'],
  ['src/main/compose.ts', './platform/menu'],
  ['src/main/compose.ts', './ipc/dispatcher'],
  ['src/main/index.ts', './cli/run-cli'],
  ['src/main/cli/layer-probe.ts', '../platform/menu'],
  ['src/main/cli/layer-probe.ts', '../ipc/dispatcher'],
  ['src/main/cli/layer-probe.ts', '../compose'],
  ['src/main/cli/commands/layer-probe.ts', '../../platform/menu'],
  ['src/web-host/layer-probe.ts', '../main/platform/menu'],
  ['src/web-host/layer-probe.ts', '../main/cli/run-cli'],
  ['src/web-host/layer-probe.ts', '../main/index'],
  ['src/web-host/layer-probe.ts', '../main/audio/native-audio'],
  ['src/web-host/bridge.ts', '../main/ipc/dispatcher'],
];

/** And the directions they allow, including names that recur in another home (shared/ipc). */
const allowedImports: [string, string][] = [
  ['src/shared/transcription/layer-probe.ts', '../ipc/contract'],
  ['src/renderer/src/layer-probe.ts', './views/library-view.svelte'],
  ['src/renderer/src/views/layer-probe.ts', '../components/confirm-dialog.svelte'],
  ['src/renderer/src/components/library/layer-probe.ts', '../../stores/keymap.svelte'],
  ['src/renderer/src/components/library/layer-probe.ts', '../../lib/library-format'],
  ['src/renderer/src/stores/layer-probe.ts', '../lib/keymap'],
  ['src/renderer/src/lib/layer-probe.ts', '../../../shared/ipc/contract'],
  ['src/main/base/layer-probe.ts', '../../shared/errors'],
  ['src/main/core/ask/layer-probe.ts', '../../base/signal'],
  ['src/main/core/ask/layer-probe.ts', '../../../shared/ipc/contract'],
  ['src/main/core/ask/layer-probe.ts', '../library/library'],
  ['src/main/core/library/layer-probe.ts', '../app-core'],
  ['src/main/audio/layer-probe.ts', '../core/voice/pcm'],
  ['src/main/ipc/layer-probe.ts', '../core/app-services'],
  ['src/main/ipc/layer-probe.ts', '../base/signal'],
  ['src/main/platform/layer-probe.ts', '../ipc/dispatcher'],
  ['src/main/platform/layer-probe.ts', '../audio/native-audio'],
  ['src/main/index.ts', './platform/menu'],
  ['src/main/index.ts', './ipc/dispatcher'],
  ['src/main/compose.ts', './core/app-core'],
  ['src/main/cli/commands/layer-probe.ts', '../../audio/native-audio'],
  ['src/main/cli/layer-probe.ts', '../core/app-core'],
  ['src/web-host/layer-probe.ts', '../main/ipc/dispatcher'],
  ['src/web-host/layer-probe.ts', '../main/compose'],
  ['src/web-host/bridge.ts', '../shared/ipc/api'],
];

const electronImport = "import { app } from 'electron';\nexport const name = app.getName();\n";
const nodeImport =
  "import { readFileSync } from 'node:fs';\nexport const text = readFileSync('x', 'utf8');\n";

// The first lint builds a TypeScript program of the whole project: seconds that grow with the code.
describe('lint layering', { timeout: 60_000 }, () => {
  it('refuses an electron import in src/main/core and src/shared', async () => {
    expect(await ruleIdsFor(electronImport, 'src/main/core/layer-probe.ts')).toContain(
      'no-restricted-imports',
    );
    expect(await ruleIdsFor(electronImport, 'src/shared/layer-probe.ts')).toContain('no-restricted-imports');
    expect(await ruleIdsFor(electronImport, 'src/main/ipc/layer-probe.ts')).toContain(
      'no-restricted-imports',
    );
  });

  it('allows electron where the design puts it', async () => {
    expect(await ruleIdsFor(electronImport, 'src/main/platform/layer-probe.ts')).not.toContain(
      'no-restricted-imports',
    );
  });

  it('refuses node:* in the renderer and in shared code', async () => {
    expect(await ruleIdsFor(nodeImport, 'src/renderer/src/layer-probe.ts')).toContain(
      'no-restricted-imports',
    );
    expect(await ruleIdsFor(nodeImport, 'src/shared/layer-probe.ts')).toContain('no-restricted-imports');
    expect(await ruleIdsFor(nodeImport, 'src/main/core/layer-probe.ts')).not.toContain(
      'no-restricted-imports',
    );
  });

  it('refuses a test kit in shipped code, in every layer, and allows it in tests and benches', async () => {
    const testKitImport = "import { something } from './helpers.test-kit';\nexport const used = something;\n";
    for (const probe of [
      'src/main/core/layer-probe.ts',
      'src/main/platform/layer-probe.ts',
      'src/shared/layer-probe.ts',
      'src/renderer/src/layer-probe.ts',
    ]) {
      expect(await ruleIdsFor(testKitImport, probe), probe).toContain('no-restricted-imports');
    }
    for (const probe of [
      'src/main/core/layer-probe.test.ts',
      'src/renderer/src/layer-probe.test.ts',
      'test/demo/layer-probe.test.ts',
      'scripts/layer-probe.test.ts',
      'bench/layer-probe.ts',
    ]) {
      expect(await ruleIdsFor(testKitImport, probe), probe).not.toContain('no-restricted-imports');
    }
  });

  it('keeps the database in src/main/core/library: no connection, SQL or handle type elsewhere', async () => {
    const probes = {
      driver: "import Database from 'better-sqlite3';\nexport const db = new Database(':memory:');\n",
      handleType:
        "import type { Db } from '../core/library/database';\nexport const rows = (db: Db): number => db.open ? 1 : 0;\n",
      opener:
        "import { openDatabase } from '../core/library/database';\nexport const db = openDatabase(':memory:');\n",
      prepare:
        "export const count = (db: { prepare(sql: string): { get(): unknown } }): unknown =>\n  db.prepare('SELECT 1').get();\n",
      exec: "export const reset = (db: { exec(sql: string): void }): void => {\n  db.exec('DELETE FROM jobs');\n};\n",
      pragma:
        "export const mode = (db: { pragma(sql: string): unknown }): unknown => db.pragma('journal_mode');\n",
      connection:
        "import { LibraryDatabase } from '../core/library/library-database';\nexport const db = (d: LibraryDatabase): unknown => LibraryDatabase.connectionOf(d);\n",
    };
    for (const [name, code] of Object.entries(probes)) {
      for (const probe of ['src/main/ipc/layer-probe.ts', 'src/main/platform/layer-probe.ts']) {
        const ruleIds = await ruleIdsFor(code, probe);
        expect(ruleIds, `${name} in ${probe}`).toEqual(
          expect.arrayContaining([expect.stringMatching(/^no-restricted-(imports|syntax)$/)]),
        );
      }
    }
    // The data folder itself, and tests building fixtures, may.
    for (const code of [probes.driver, probes.prepare, probes.exec, probes.pragma]) {
      for (const probe of ['src/main/core/library/layer-probe.ts', 'src/main/ipc/layer-probe.test.ts']) {
        const ruleIds = await ruleIdsFor(code.replaceAll('../core/library/', './'), probe);
        expect(ruleIds, probe).not.toContain('no-restricted-imports');
        expect(ruleIds, probe).not.toContain('no-restricted-syntax');
      }
    }
    // A RegExp's exec is not SQL.
    const regexExec =
      'export const year = (text: string): string | undefined => /(\\d{4})/.exec(text)?.[1];\n';
    expect(await ruleIdsFor(regexExec, 'src/main/ipc/layer-probe.ts')).not.toContain('no-restricted-syntax');
  });

  it("keeps the newsroom's PostgreSQL in src/main/core/newsroom: pg is imported nowhere else that ships", async () => {
    const driver = "import pg from 'pg';\nexport const pool = new pg.Pool();\n";
    for (const probe of [
      'src/main/cli/layer-probe.ts',
      'src/main/core/layer-probe.ts',
      'src/main/ipc/layer-probe.ts',
    ])
      expect(await ruleIdsFor(driver, probe), probe).toContain('no-restricted-imports');
    for (const probe of ['src/main/core/newsroom/layer-probe.ts', 'src/main/cli/layer-probe.test.ts'])
      expect(await ruleIdsFor(driver, probe), probe).not.toContain('no-restricted-imports');
  });

  it.each(refusedImports)('refuses %s importing %s', async (from, specifier) => {
    expect(await ruleIdsForImport(from, specifier)).toContain('no-restricted-imports');
  });

  it('says where the refused import may go instead', async () => {
    const [result] = await eslint.lintText(importing('../ipc/dispatcher'), {
      filePath: 'src/main/core/app-core.ts',
    });
    expect(result?.messages.map((message) => message.message)).toContainEqual(
      expect.stringContaining(
        'Code in src/main/core may import only src/main/core, src/shared and src/main/base: see Layers in docs/architecture.md.',
      ),
    );
  });

  it.each(allowedImports)('allows %s importing %s', async (from, specifier) => {
    expect(await ruleIdsForImport(from, specifier)).not.toContain('no-restricted-imports');
  });

  it('puts every shipped source file in a zone', async () => {
    const sourceFiles = readdirSync('src', { recursive: true, encoding: 'utf8' })
      .map((file) => join('src', file))
      .filter((file) => /\.(ts|svelte)$/.test(file) && !/\.test(-kit)?\.ts$/.test(file));
    expect(sourceFiles.length).toBeGreaterThan(100);
    const unzoned: string[] = [];
    for (const file of sourceFiles) {
      const config = (await eslint.calculateConfigForFile(file)) as {
        rules?: Record<string, [string, { patterns?: { regex?: string }[] }]>;
      };
      const patterns = config.rules?.['no-restricted-imports']?.[1]?.patterns ?? [];
      if (!patterns.some((pattern) => pattern.regex !== undefined)) unzoned.push(file);
    }
    expect(unzoned).toEqual([]);
  });

  it('flags a floating promise', async () => {
    const code = 'export async function f(): Promise<void> {}\nexport function g(): void {\n  f();\n}\n';
    expect(await ruleIdsFor(code, 'src/main/core/layer-probe.ts')).toContain(
      '@typescript-eslint/no-floating-promises',
    );
  });
});
