import { describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCliProcess } from './cli-process.test-kit';
import { upgradeStepsFrom, writePreviousFormatLibrary } from '../core/library/old-library.test-kit';

/** From before the prefix indexes (format 10). */
const steps = upgradeStepsFrom(10);

describe('a command that opens a library an older Verbatim left', () => {
  it('tells the upgrade on stderr, a line a step and how long it took, and prints the same JSON', async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'verbatim-cli-upgrade-')), 'data');
    writePreviousFormatLibrary(dataDir, { sentences: 30, format: 10 });
    const env = { VERBATIM_DATA_DIR: dataDir };

    const upgrading = await runCliProcess(['search', 'harbour', '--json'], env);
    expect(upgrading.code, upgrading.stderr).toBe(0);
    const lines = upgrading.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(steps + 1);
    expect(lines[0]).toMatch(
      new RegExp(
        `^verbatim: Upgrading the library, step 1 of ${steps}: backing up your library, (a few seconds|about \\d+ seconds?) left\\.$`,
      ),
    );
    expect(lines[1]).toMatch(
      new RegExp(
        `^verbatim: Upgrading the library, step 2 of ${steps}: rebuilding the search index for faster search, `,
      ),
    );
    lines
      .slice(0, steps)
      .forEach((line, index) =>
        expect(line).toMatch(
          new RegExp(
            `^verbatim: Upgrading the library, step ${index + 1} of ${steps}: [a-z][^.]*[a-z] left\\.$`,
          ),
        ),
      );
    expect(lines[steps]).toMatch(/^verbatim: Library updated in \d+ s\.$/);

    // The library now at the latest format: nothing said, and the same answer on stdout.
    const upgraded = await runCliProcess(['search', 'harbour', '--json'], env);
    expect(upgraded.stderr).toBe('');
    expect(upgrading.stdout).toBe(upgraded.stdout);
    expect((JSON.parse(upgrading.stdout) as { hits: unknown[] }).hits).toHaveLength(20);
  });
});
