import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliEntry } from './cli-process.test-kit';

/**
 * A library on a disk with no room left, for real (a full tmpfs in a private mount namespace):
 * opening it fails inside SQLite as an I/O error, which is a full disk, not a damaged library.
 */
describe('opening the library on a full disk', () => {
  it('says the disk is full, never that the library is damaged, for catalog and jobs alike', async () => {
    const work = mkdtempSync(join(tmpdir(), 'verbatim-full-open-'));
    const data = join(work, 'data');
    const script = `
      set -u
      mkdir -p "$DATA"
      mount -t tmpfs -o size=2m tmpfs "$DATA"
      node --import tsx "$CLI" jobs > "$WORK/made.out" 2> "$WORK/made.err"; echo $? > "$WORK/made.code"
      dd if=/dev/zero of="$DATA/filler" bs=64k 2>/dev/null
      dd if=/dev/zero of="$DATA/filler-small" bs=4k 2>/dev/null
      VERBATIM_CATALOG_KEY=catalog-key node --import tsx "$CLI" catalog models > "$WORK/catalog.out" 2> "$WORK/catalog.err"; echo $? > "$WORK/catalog.code"
      node --import tsx "$CLI" jobs > "$WORK/jobs.out" 2> "$WORK/jobs.err"; echo $? > "$WORK/jobs.code"
    `;
    writeFileSync(join(work, 'run.sh'), script);
    const child = spawn('unshare', ['--user', '--map-root-user', '--mount', 'sh', join(work, 'run.sh')], {
      env: {
        ...process.env,
        DATA: data,
        WORK: work,
        CLI: cliEntry,
        VERBATIM_DATA_DIR: data,
        // Nothing listens there: the catalog is never reached, the library is opened first.
        VERBATIM_CATALOG_URL: 'http://127.0.0.1:9',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let shellErrors = '';
    child.stderr.on('data', (chunk: Buffer) => (shellErrors += chunk.toString()));
    expect(await new Promise((resolveEnd) => child.on('close', resolveEnd)), shellErrors).toBe(0);
    const read = (name: string): string => readFileSync(join(work, name), 'utf8');

    expect(read('made.code').trim(), read('made.err')).toBe('0');
    for (const command of ['catalog', 'jobs']) {
      expect(read(`${command}.code`).trim(), read(`${command}.err`)).toBe('1');
      expect(read(`${command}.err`)).toBe(
        `verbatim: The disk holding ${join(data, 'library.sqlite')} is full. Free some space, then start Verbatim again; nothing was lost.\n`,
      );
    }
  }, 120_000);
});
