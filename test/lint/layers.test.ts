import { describe, expect, it } from 'vitest';
import { ESLint } from 'eslint';
import { rmSync, writeFileSync } from 'node:fs';
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

  it('flags a floating promise', async () => {
    const code = 'export async function f(): Promise<void> {}\nexport function g(): void {\n  f();\n}\n';
    expect(await ruleIdsFor(code, 'src/main/core/layer-probe.ts')).toContain(
      '@typescript-eslint/no-floating-promises',
    );
  });
});
