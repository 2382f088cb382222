import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  checkPrerequisites,
  prerequisitesMessage,
  thisMachine,
  type Machine,
} from './check-prerequisites.mjs';
import { environmentWith } from '../src/main/cli/cli-process.test-kit';
import { systemCjkFonts } from '../src/main/core/export/fonts';

/** A machine with everything `npm test` needs, but for what `lacks` takes away. */
function machine(overrides: Partial<Machine> & { lacks?: string[] } = {}): Machine {
  const lacks = new Set(overrides.lacks ?? []);
  return {
    platform: 'linux',
    env: {},
    nodeVersion: '20.19.0',
    hasCommand: (name) => !lacks.has(name),
    chromium: () => (lacks.has('chromium') ? undefined : '/usr/bin/chromium'),
    hasCjkFont: () => Promise.resolve(!lacks.has('cjk font')),
    ...overrides,
  };
}

describe('what npm test checks before it runs', () => {
  it('says nothing is missing on a machine that has it all', async () => {
    const found = await checkPrerequisites(machine());
    expect(found).toEqual({ missing: [], skipped: [] });
    expect(prerequisitesMessage(found, 'linux')).toBeUndefined();
  });

  it('names everything missing in one message, with the one command that installs it on Debian', async () => {
    const found = await checkPrerequisites(
      machine({
        env: { CI: 'true' },
        nodeVersion: '20.11.1',
        lacks: ['chromium', 'cjk font', 'pdftotext', 'sox', 'jq', 'bash'],
      }),
    );
    expect(prerequisitesMessage(found, 'linux')).toBe(
      [
        'npm test needs what this machine does not have:',
        '  - Node.js 20.19 or newer (this is 20.11.1), for the test suite (https://nodejs.org)',
        '  - Chromium or Chrome (or VERBATIM_CHROMIUM naming one), for the end-to-end tests (chromium)',
        '  - a Chinese, Japanese and Korean font, for the PDF export tests (fonts-noto-cjk)',
        '  - pdftotext, for reading exported PDFs back (poppler-utils)',
        "  - sox, for the README's emulator example (sox)",
        "  - jq, for the README's emulator example (jq)",
        "  - bash, for the README's emulator example (bash)",
        'On Debian or Ubuntu: sudo apt-get install chromium fonts-noto-cjk poppler-utils sox jq bash',
        'Install them and run npm test again; README.md, "What npm test needs", lists every one.',
      ].join('\n'),
    );
  });

  it('lets a machine without a browser run, outside CI only, saying the end-to-end tests will not', async () => {
    const found = await checkPrerequisites(machine({ lacks: ['chromium'] }));
    expect(found.missing).toEqual([]);
    expect(prerequisitesMessage(found, 'linux')).toBe(
      [
        'Not found, so those tests will say NOT RUN (required under CI):',
        '  - Chromium or Chrome (or VERBATIM_CHROMIUM naming one), for the end-to-end tests (chromium)',
      ].join('\n'),
    );
  });

  it('says how to get it on macOS, with no apt-get line', async () => {
    const found = await checkPrerequisites(machine({ platform: 'darwin', lacks: ['pdftotext', 'jq'] }));
    expect(prerequisitesMessage(found, 'darwin')).toBe(
      [
        'npm test needs what this machine does not have:',
        '  - pdftotext, for reading exported PDFs back (brew install poppler)',
        "  - jq, for the README's emulator example (brew install jq)",
        'Install them and run npm test again; README.md, "What npm test needs", lists every one.',
      ].join('\n'),
    );
  });

  it('asks for the same Debian packages as README.md and .ci/run install', async () => {
    const root = resolve(import.meta.dirname, '..');
    const readme = readFileSync(join(root, 'README.md'), 'utf8').replace(/\s+/g, ' ');
    const readmeLine = /On Debian or Ubuntu, all at once: `sudo apt-get install ([^`]+)`/.exec(readme)?.[1];
    const readmePackages = new Set(readmeLine?.split(' '));
    const ciPackages = new Set(
      [...readFileSync(join(root, '.ci/run'), 'utf8').matchAll(/need\+=\(([\w+.-]+)\)/g)].map(
        (match) => match[1],
      ),
    );
    expect(ciPackages).toEqual(readmePackages);
    const everything = await checkPrerequisites(
      machine({ env: { CI: 'true' }, lacks: ['chromium', 'cjk font', 'pdftotext', 'sox', 'jq', 'bash'] }),
    );
    // bash comes with every Debian and Ubuntu: the README need not ask for it.
    const checked = everything.missing
      .flatMap((prerequisite) => prerequisite.debian ?? [])
      .filter((name) => name !== 'bash');
    for (const name of checked) expect(readmePackages, name).toContain(name);
  });

  it('looks for the CJK font exactly as the PDF export does', async () => {
    expect(await thisMachine.hasCjkFont()).toBe(systemCjkFonts() !== null);
  });

  it('as a command: exits 1 with the message when programs are missing from PATH', async () => {
    const emptyPath = mkdtempSync(join(tmpdir(), 'verbatim-empty-path-'));
    // Plain node, as npm test starts it: the font lookup loads its TypeScript through tsx itself.
    const child = spawn(process.execPath, [resolve(import.meta.dirname, 'check-prerequisites.mjs')], {
      env: environmentWith({ PATH: emptyPath, CI: 'true' }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const run = { code: await new Promise<number | null>((done) => child.on('close', done)), stdout, stderr };
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('npm test needs what this machine does not have:');
    for (const name of ['pdftotext', 'sox', 'jq', 'bash']) expect(run.stderr).toContain(`  - ${name}, for `);
    expect(run.stdout).toBe('');
  });
});
