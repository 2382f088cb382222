import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const runner = resolve(import.meta.dirname, 'run-tests.mjs');

/**
 * A project whose npm scripts stand in for `npm test`'s stages: each prints that it ran and
 * exits with the code given (0 when none is). The runner runs them as it runs the real ones.
 */
function standInProject(exitCodes: Record<string, number> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'verbatim-run-tests-'));
  const stage = (name: string): string =>
    `node -e "console.log('${name} ran'); process.exit(${exitCodes[name] ?? 0})"`;
  const scripts = {
    typecheck: stage('typecheck'),
    lint: stage('lint'),
    build: stage('build'),
    'test:unit': stage('unit'),
    'test:e2e': stage('e2e'),
    'test:electron': stage('electron'),
  };
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'stand-in', private: true, scripts }));
  mkdirSync(join(dir, 'scripts'));
  writeFileSync(
    join(dir, 'scripts', 'check-prerequisites.mjs'),
    `console.log('prerequisites ran'); process.exit(${exitCodes.prerequisites ?? 0});\n`,
  );
  return dir;
}

/** `npm test`'s runner as a real child process in the project, its output piped. */
function runIn(dir: string): Promise<{ code: number | null; out: string; lastLine: string }> {
  const child = spawn(process.execPath, [runner], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
  return new Promise((resolveRun) =>
    child.on('close', (code) => resolveRun({ code, out, lastLine: out.trimEnd().split('\n').at(-1) ?? '' })),
  );
}

const ran = (out: string): string[] => [...out.matchAll(/^(\w+) ran$/gm)].map((match) => match[1]!);

describe('npm test (scripts/run-tests.mjs)', { timeout: 120_000 }, () => {
  it('runs every stage in order and exits 0 when all pass', async () => {
    const run = await runIn(standInProject());
    expect(ran(run.out)).toEqual(['prerequisites', 'typecheck', 'lint', 'build', 'unit', 'e2e', 'electron']);
    expect(run.lastLine).toBe('7 passed, 0 failed');
    expect(run.code).toBe(0);
  });

  it('goes on after a failing stage, reports it, and exits 1', async () => {
    const run = await runIn(standInProject({ lint: 1 }));
    expect(ran(run.out)).toEqual(['prerequisites', 'typecheck', 'lint', 'build', 'unit', 'e2e', 'electron']);
    expect(run.out).toMatch(/^ {2}FAILED +lint +exit code 1, [\d.]+ s$/m);
    expect(run.out).toMatch(/^ {2}PASSED +electron +[\d.]+ s$/m);
    expect(run.lastLine).toBe('6 passed, 1 failed');
    expect(run.code).toBe(1);
  });

  it('says the end-to-end and desktop stages could not run when the build failed, and runs the rest', async () => {
    const run = await runIn(standInProject({ build: 2, unit: 1 }));
    expect(ran(run.out)).toEqual(['prerequisites', 'typecheck', 'lint', 'build', 'unit']);
    expect(run.out).toMatch(/^ {2}FAILED +build +exit code 2, /m);
    expect(run.out).toMatch(/^ {2}NOT RUN +e2e +it needs the build, which failed$/m);
    expect(run.out).toMatch(/^ {2}NOT RUN +electron +it needs the build, which failed$/m);
    expect(run.lastLine).toBe('3 passed, 2 failed, 2 not run');
    expect(run.code).toBe(1);
  });

  it('runs no stage when a prerequisite is missing', async () => {
    const run = await runIn(standInProject({ prerequisites: 1 }));
    expect(ran(run.out)).toEqual(['prerequisites']);
    expect(run.out).toMatch(/^ {2}NOT RUN +typecheck +the prerequisites stage failed$/m);
    expect(run.lastLine).toBe('0 passed, 1 failed, 6 not run');
    expect(run.code).toBe(1);
  });

  it("lists under each failed stage the failing tests its output named (Vitest's and Playwright's, not a flaky one), so a log's tail says which", async () => {
    const dir = standInProject({ unit: 1, e2e: 1 });
    // What Vitest and Playwright print on failure, coloured, the unit stage's in many small writes.
    writeFileSync(
      join(dir, 'scripts', 'unit-output.mjs'),
      `const text = '\\x1b[31m FAIL \\x1b[39m src/a.test.ts > library > keeps every word\\n' +
        ' FAIL  src/b.test.ts > survives a SIGKILL\\n FAIL  src/a.test.ts > library > keeps every word\\n';
      for (const piece of text.match(/[\\s\\S]{1,7}/g)) process.stdout.write(piece);
      process.exit(1);\n`,
    );
    writeFileSync(
      join(dir, 'scripts', 'e2e-output.mjs'),
      `console.error('  2 failed\\n    [chromium] › reader.e2e.ts:10:3 › plays a quote\\n' +
        '    [chromium] › library.e2e.ts:20:3 › row menu\\n  1 flaky\\n    [chromium] › story.e2e.ts:5:3 › retried\\n  160 passed (19.6m)');
      process.exit(1);\n`,
    );
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    pkg.scripts['test:unit'] = 'node scripts/unit-output.mjs';
    pkg.scripts['test:e2e'] = 'node scripts/e2e-output.mjs';
    writeFileSync(join(dir, 'package.json'), JSON.stringify(pkg));
    const run = await runIn(dir);
    const report = run.out.slice(run.out.indexOf('npm test, stage by stage:'));
    expect(
      report
        .split('\n')
        .slice(5, 13)
        .map((line) => line.trim()),
    ).toEqual([
      expect.stringMatching(/^FAILED +unit +exit code 1/),
      '✗ src/a.test.ts > library > keeps every word',
      '✗ src/b.test.ts > survives a SIGKILL',
      expect.stringMatching(/^FAILED +e2e +exit code 1/),
      '✗ [chromium] › reader.e2e.ts:10:3 › plays a quote',
      '✗ [chromium] › library.e2e.ts:20:3 › row menu',
      expect.stringMatching(/^PASSED +electron/),
      '5 passed, 2 failed',
    ]);
    expect(run.code).toBe(1);
  });
});
