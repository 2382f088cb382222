import { describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { startCliProcess } from './cli-process.test-kit';
import { writePreviousFormatLibrary } from '../core/library/old-library.test-kit';
import { migrations } from '../core/library/migrations/index';

const waiting = 'verbatim: Another Verbatim is upgrading the library; waiting…\n';

describe('a library of the previous format opened by several command lines at once', () => {
  it('is upgraded by one while the others wait for it and then read the upgraded library', async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'verbatim-upgrade-race-')), 'data');
    // From before search facets (format 12), as older builds left it, with enough sentences
    // that rebuilding their index takes the upgrade a moment.
    const library = writePreviousFormatLibrary(dataDir, { sentences: 200_000, format: 11 });
    const env = { VERBATIM_DATA_DIR: dataDir };
    const backups = join(dataDir, 'backups');

    const jobs = startCliProcess(['jobs'], env);
    const search = startCliProcess(['search', 'Harbour', '--json'], env);
    // The third starts while the upgrade is under way: once its backup copy has begun.
    while (!(existsSync(backups) && readdirSync(backups).length > 0))
      await new Promise((resolveWait) => setTimeout(resolveWait, 5));
    const show = startCliProcess(['show', 't1'], env);
    const runs = await Promise.all([jobs.finished, search.finished, show.finished]);

    for (const run of runs) expect(run.code, run.stderr).toBe(0);
    // One upgraded, telling its steps; the others said at most that they waited.
    const upgraders = runs.filter((run) => /Library updated in \d+ s\.\n$/.test(run.stderr));
    expect(upgraders).toHaveLength(1);
    expect(upgraders[0]!.stderr).toMatch(
      /^(verbatim: Upgrading the library, step \d+ of \d+: [^\n]+\n)+verbatim: Library/,
    );
    for (const run of runs.filter((other) => other !== upgraders[0]))
      expect(run.stderr.replace(waiting, '')).toBe('');
    expect(runs[0].stdout).toBe('t1  Harbour board interview  completed\n');
    const found = JSON.parse(runs[1].stdout) as { hits: { transcriptId: string }[] };
    expect(found.hits).toHaveLength(20);
    expect(found.hits.every((hit) => hit.transcriptId === 't1')).toBe(true);
    expect(runs[2].stdout).toMatch(/^t1 {2}Harbour board interview {2}completed\n/);
    // At least the one started alongside the upgrader waited for it, and said so once.
    expect(runs.filter((run) => run.stderr === waiting).length).toBeGreaterThanOrEqual(1);

    expect(readdirSync(backups).filter((name) => name.includes('-before-format-'))).toHaveLength(1);
    const upgraded = new Database(library, { readonly: true });
    expect(upgraded.pragma('user_version', { simple: true })).toBe(migrations.at(-1)!.version);
    upgraded.close();
  }, 180_000);
});
