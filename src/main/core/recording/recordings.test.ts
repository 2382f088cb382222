import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, type Db } from '../library/database';
import { wavHeader } from './crash-safe-wav';
import { processAlive, Recordings } from './recordings';

let db: Db;
const dir = mkdtempSync(join(tmpdir(), 'verbatim-recordings-'));
beforeEach(() => {
  db = openDatabase(':memory:');
});
afterEach(() => db.close());

describe('the library’s recordings', () => {
  it('repair what a gone process left recording, mark a lost file missing, and leave a live one alone', async () => {
    const living = new Set([4242]);
    const recordings = new Recordings(
      db,
      () => 1_000,
      (pid) => living.has(pid),
    );
    const cut = join(dir, 'cut.wav');
    // A header that still says "no sound" over one second and a half frame of it.
    writeFileSync(
      cut,
      Buffer.concat([wavHeader({ sampleRate: 16_000, channels: 1 }, 0), Buffer.alloc(32_001)]),
    );
    const crashed = await recordings.start(cut, { sampleRate: 16_000, channels: 1 }, 999_991);
    await recordings.start(join(dir, 'gone.wav'), { sampleRate: 48_000, channels: 2 }, 999_992);
    const live = await recordings.start(join(dir, 'live.wav'), { sampleRate: 48_000, channels: 1 }, 4242);
    const done = await recordings.start(join(dir, 'done.wav'), { sampleRate: 44_100, channels: 1 }, 999_993);
    await recordings.finish(done.id, 60_000);

    const changed = await recordings.recover();
    expect(changed.map((recording) => [recording.path, recording.status, recording.durationMs])).toEqual([
      [cut, 'recovered', 1000],
      [join(dir, 'gone.wav'), 'missing', 0],
    ]);
    expect(readFileSync(cut).readUInt32LE(40)).toBe(32_000);
    const statuses = Object.fromEntries((await recordings.list()).map((r) => [r.id, r.status]));
    expect(statuses).toMatchObject({
      [crashed.id]: 'recovered',
      [live.id]: 'recording',
      [done.id]: 'finished',
    });
    expect(await recordings.recover()).toEqual([]);
  });

  it('knows a running process from one that has ended', () => {
    expect(processAlive(process.pid)).toBe(true);
    expect(processAlive(2 ** 22 + 12_345)).toBe(false);
  });
});
