import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { copyFileSync, mkdtempSync, readFileSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Recording } from '../../../shared/recording';
import { openDatabase, type Db } from './database';
import { Library } from './library';
import { pcm16WavHeader } from '../media/wav-header';
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
      Buffer.concat([pcm16WavHeader({ sampleRate: 16_000, channels: 1 }, 0), Buffer.alloc(32_001)]),
    );
    const crashed = await recordings.start(cut, { sampleRate: 16_000, channels: 1 }, 999_991);
    await recordings.start(join(dir, 'gone.wav'), { sampleRate: 48_000, channels: 2 }, 999_992);
    const live = await recordings.start(join(dir, 'live.wav'), { sampleRate: 48_000, channels: 1 }, 4242);
    const done = await recordings.start(join(dir, 'done.wav'), { sampleRate: 44_100, channels: 1 }, 999_993);
    writeFileSync(join(dir, 'done.wav'), pcm16WavHeader({ sampleRate: 44_100, channels: 1 }, 0));
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

  it('link a transcript to the recording whose file was sent: its path, a link to it, or a copy of its bytes', async () => {
    const recordings = new Recordings(db);
    const folder = mkdtempSync(join(dir, 'link-'));
    const made = async (name: string, sound: Buffer): Promise<Recording> => {
      const path = join(folder, name);
      const recording = await recordings.start(path, { sampleRate: 16_000, channels: 1 });
      writeFileSync(
        path,
        Buffer.concat([pcm16WavHeader({ sampleRate: 16_000, channels: 1 }, sound.length), sound]),
      );
      return recordings.finish(recording.id, 1000);
    };
    const library = new Library(db);
    for (const id of ['t1', 't2', 't3', 't4'])
      await library.createJob({
        id,
        title: id,
        sourceKind: 'file',
        source: `/sent/${id}.wav`,
        audioPath: `/sent/${id}.wav`,
        region: 'us',
        options: {},
        status: 'cancelled',
      });
    const interview = await made('interview.wav', Buffer.alloc(32_000, 7));
    // The same length, one byte apart at the very end: another recording.
    const other = await made('other.wav', Buffer.concat([Buffer.alloc(31_999, 7), Buffer.from([8])]));

    expect(await recordings.linkFile(join(folder, 'interview.wav'), 't1')).toMatchObject({
      id: interview.id,
      transcriptId: 't1',
    });
    symlinkSync(join(folder, 'other.wav'), join(folder, 'shortcut.wav'));
    expect(await recordings.linkFile(join(folder, 'shortcut.wav'), 't2')).toMatchObject({ id: other.id });
    const copy = join(folder, 'copy.wav');
    copyFileSync(join(folder, 'interview.wav'), copy);
    expect(await recordings.linkFile(copy, 't3')).toMatchObject({ id: interview.id, transcriptId: 't3' });

    // A file that is none of them links nothing, not even one of the same size.
    const stranger = join(folder, 'stranger.wav');
    writeFileSync(
      stranger,
      Buffer.concat([pcm16WavHeader({ sampleRate: 16_000, channels: 1 }, 32_000), Buffer.alloc(32_000, 9)]),
    );
    expect(await recordings.linkFile(stranger, 't4')).toBeUndefined();
    expect((await recordings.list()).map((recording) => recording.transcriptId).sort()).toEqual(['t2', 't3']);
  });

  it('link a sent file to the recording holding the same bytes, whatever the recordings and the file', async () => {
    const library = new Library(db);
    const recordings = new Recordings(db);
    let run = 0;
    // Small sounds, often of the same length and nearly alike: a match must be by every byte.
    const sound = fc.uint8Array({ minLength: 1, maxLength: 6 }).map((bytes) => Buffer.from(bytes));
    await fc.assert(
      fc.asyncProperty(
        fc.array(sound, { minLength: 1, maxLength: 4 }),
        fc.oneof(fc.nat({ max: 3 }), sound),
        async (sounds, sent) => {
          run += 1;
          const folder = mkdtempSync(join(dir, 'property-'));
          db.exec('DELETE FROM recordings');
          const made: { id: number; sound: Buffer }[] = [];
          for (const [index, bytes] of sounds.entries()) {
            const path = join(folder, `${index}.wav`);
            writeFileSync(path, bytes);
            const started = await recordings.start(path, { sampleRate: 16_000, channels: 1 });
            await recordings.finish(started.id, 0);
            made.push({ id: started.id, sound: bytes });
          }
          const file = join(folder, 'sent.wav');
          writeFileSync(file, typeof sent === 'number' ? sounds[sent % sounds.length]! : sent);
          const transcriptId = `property-${run}`;
          await library.createJob({
            id: transcriptId,
            title: transcriptId,
            sourceKind: 'file',
            source: file,
            audioPath: file,
            region: 'us',
            options: {},
            status: 'cancelled',
          });
          const linked = await recordings.linkFile(file, transcriptId);
          const same = made.filter((recording) => recording.sound.equals(readFileSync(file)));
          if (same.length === 0) expect(linked).toBeUndefined();
          else expect(same.map((recording) => recording.id)).toContain(linked?.id);
          // Only that recording is linked to it.
          expect(
            (await recordings.list()).filter((recording) => recording.transcriptId === transcriptId),
          ).toHaveLength(same.length === 0 ? 0 : 1);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('list a made recording whose file has gone as missing, and as it was once the file is back', async () => {
    const recordings = new Recordings(db);
    const path = join(mkdtempSync(join(dir, 'gone-')), 'interview.wav');
    const started = await recordings.start(path, { sampleRate: 16_000, channels: 1 });
    writeFileSync(path, pcm16WavHeader({ sampleRate: 16_000, channels: 1 }, 0));
    await recordings.finish(started.id, 0);
    renameSync(path, `${path}.aside`);
    expect(await recordings.get(started.id)).toMatchObject({ status: 'missing' });
    expect(await recordings.list()).toMatchObject([{ status: 'missing' }]);
    renameSync(`${path}.aside`, path);
    expect(await recordings.get(started.id)).toMatchObject({ status: 'finished' });
  });

  it('knows a running process from one that has ended', () => {
    expect(processAlive(process.pid)).toBe(true);
    expect(processAlive(2 ** 22 + 12_345)).toBe(false);
  });
});
