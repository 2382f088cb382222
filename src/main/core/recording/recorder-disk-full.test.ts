import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Recording, RecorderStatus } from '../../../shared/recording';

/**
 * The Record view's recorder on a disk that fills up, for real: its data folder is a 2 MB tmpfs in
 * a private mount namespace (recorder-on-disk.test-kit.ts runs it there). It stops, keeps the
 * recording in the library at the length the file holds, and its status says how much is kept
 * and why it stopped.
 */
const program = resolve(import.meta.dirname, 'recorder-on-disk.test-kit.ts');

describe('the recorder on a disk that fills up', () => {
  it('stops, keeps what was saved in the library with a header that matches, and says so', async () => {
    const work = mkdtempSync(join(tmpdir(), 'verbatim-recorder-disk-full-'));
    const dataDir = join(work, 'data');
    const script = `
      set -u
      mkdir -p "$DATA"
      mount -t tmpfs -o size=2m tmpfs "$DATA"
      node --import tsx "$PROGRAM" "$DATA" > "$WORK/out.json"
      cp "$DATA"/recordings/*.wav "$WORK/kept.wav"
    `;
    writeFileSync(join(work, 'run.sh'), script);
    const child = spawn('unshare', ['--user', '--map-root-user', '--mount', 'sh', join(work, 'run.sh')], {
      env: { ...process.env, DATA: dataDir, WORK: work, PROGRAM: program },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let shellErrors = '';
    child.stderr.on('data', (chunk: Buffer) => (shellErrors += chunk.toString()));
    expect(await new Promise((resolveEnd) => child.on('close', resolveEnd)), shellErrors).toBe(0);

    const { status, listed } = JSON.parse(readFileSync(join(work, 'out.json'), 'utf8')) as {
      status: RecorderStatus;
      listed: Recording[];
    };
    const file = readFileSync(join(work, 'kept.wav'));
    const dataBytes = file.length - 44;
    expect(file.readUInt32LE(40)).toBe(dataBytes);
    expect(file.readUInt32LE(4)).toBe(36 + dataBytes);
    const durationMs = Math.floor((dataBytes / 32_000) * 1000);
    expect(durationMs).toBeGreaterThan(3000);
    const seconds = `${Math.floor(durationMs / 1000)} s`;
    expect(status.ended).toEqual({
      reason: 'write-failed',
      message: `The disk is full: the recording stopped after ${seconds}, and all ${seconds} are kept in ${status.recording?.path}. Free some space before recording again.`,
    });
    expect(status.recording).toMatchObject({ status: 'finished', durationMs });
    expect(listed).toMatchObject([{ status: 'finished', durationMs, path: status.recording?.path }]);
  }, 120_000);
});
