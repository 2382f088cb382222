import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { patternChunk } from '../../core/recording/record-and-report.test-kit';
import { alsaFileInput } from '../alsa-file-input.test-kit';
import { cliEntry } from '../cli-process.test-kit';

/**
 * `record` until the disk is full, for real: the data folder is a 2 MB tmpfs (the library file takes its share) in a private mount
 * namespace, the input a raw file (ALSA's file plugin, 16 kHz mono) longer than the disk holds.
 * The recording stops, stays in the library with every byte it kept, its header saying exactly
 * that, and a sentence says how much was kept and why it stopped.
 */
describe('record on a disk that fills up', () => {
  it('keeps the recording in the library, whole and byte-exact, and says why it stopped', async () => {
    const work = mkdtempSync(join(tmpdir(), 'verbatim-record-disk-full-'));
    const dataDir = join(work, 'data');
    // Sixty seconds of a known pattern: more than the disk holds, none of it repeated.
    const sound = patternChunk(0, 16_000 * 60);
    const config = alsaFileInput(work, sound);
    const script = `
      set -u
      mkdir -p "$DATA"
      mount -t tmpfs -o size=2m tmpfs "$DATA"
      node --import tsx "$CLI" record --rate 16000 --duration 60 --json > "$WORK/record.out" 2> "$WORK/record.err"
      echo $? > "$WORK/record.code"
      node --import tsx "$CLI" recordings --json > "$WORK/list.out" 2> "$WORK/list.err"
      mkdir -p "$WORK/kept" && cp "$DATA"/recordings/*.wav "$WORK/kept/"
    `;
    writeFileSync(join(work, 'run.sh'), script);
    const child = spawn('unshare', ['--user', '--map-root-user', '--mount', 'sh', join(work, 'run.sh')], {
      env: {
        ...process.env,
        DATA: dataDir,
        WORK: work,
        CLI: cliEntry,
        VERBATIM_DATA_DIR: dataDir,
        ALSA_CONFIG_PATH: config,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let shellErrors = '';
    child.stderr.on('data', (chunk: Buffer) => (shellErrors += chunk.toString()));
    expect(await new Promise((resolveEnd) => child.on('close', resolveEnd)), shellErrors).toBe(0);

    const read = (name: string): string => readFileSync(join(work, name), 'utf8');
    const [name] = readdirSync(join(work, 'kept'));
    const file = readFileSync(join(work, 'kept', name!));
    const dataBytes = file.length - 44;
    const seconds = (dataBytes / 32_000).toFixed(1);
    expect(Number(seconds)).toBeGreaterThan(3);
    // The header says exactly what the file holds: whole frames, the very bytes heard.
    expect(file.readUInt32LE(40)).toBe(dataBytes);
    expect(file.readUInt32LE(4)).toBe(36 + dataBytes);
    expect(dataBytes % 2).toBe(0);
    expect(file.subarray(44).equals(sound.subarray(0, dataBytes))).toBe(true);

    expect(read('record.code').trim(), read('record.err')).toBe('1');
    const path = join(dataDir, 'recordings', name!);
    expect(read('record.err')).toBe(
      `verbatim: The disk is full: the recording stopped after ${seconds} s, and all ${seconds} s are kept in ${path}. Free some space before recording again.\n`,
    );
    const durationMs = Math.round((dataBytes / 32_000) * 1000);
    expect(JSON.parse(read('record.out'))).toMatchObject({ path, status: 'finished', durationMs });
    expect(JSON.parse(read('list.out'))).toMatchObject([{ path, status: 'finished', durationMs }]);
  }, 120_000);
});
