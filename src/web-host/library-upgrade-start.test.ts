import { describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startTypeScriptProcess } from '../main/cli/cli-process.test-kit';
import { upgradeStepsFrom, writePreviousFormatLibrary } from '../main/core/library/old-library.test-kit';

const startScript = resolve(import.meta.dirname, 'start.ts');

describe('the web host started on a library an older Verbatim left', () => {
  it('says each step of the upgrade on stderr, then how long it took, before it serves the page', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'verbatim-web-upgrade-'));
    writePreviousFormatLibrary(dataDir, { sentences: 20, format: 10 });
    const host = startTypeScriptProcess(startScript, [], {
      VERBATIM_DATA_DIR: dataDir,
      VERBATIM_WEB_PORT: '0',
    });
    // Serving: the upgrade is over. Stopped then, as a journalist's Ctrl+C would.
    host.child.stdout.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('running in your browser')) host.child.kill('SIGTERM');
    });
    const run = await host.finished;
    const lines = run.stderr.trimEnd().split('\n');
    const steps = upgradeStepsFrom(10);
    expect(lines).toHaveLength(steps + 1);
    lines
      .slice(0, steps)
      .forEach((line, index) =>
        expect(line).toMatch(
          new RegExp(`^verbatim: Upgrading the library, step ${index + 1} of ${steps}: [a-z]`),
        ),
      );
    expect(lines[0]).toContain('backing up your library');
    expect(lines[steps]).toMatch(/^verbatim: Library updated in \d+ s\.$/);
    expect(run.stdout).toContain('Verbatim is running in your browser');
  });
});
