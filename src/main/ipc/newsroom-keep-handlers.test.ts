import { beforeAll, describe, expect, it } from 'vitest';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  connectionAs,
  passwordOf,
  samplePublication,
  setUpSampleNewsroom,
} from '../core/newsroom/newsroom-archive.test-kit';
import { NewsroomArchive } from '../core/newsroom/newsroom-archive';
import { useNewsroomServer } from '../core/newsroom/newsroom-server.test-kit';
import { useAppTestbeds } from './ipc-testbed.test-kit';
import type { TranscriptDetail } from '../../shared/ipc/contract';
import type { KeptNewsroomCopy, NewsroomKeepProgress } from '../../shared/ipc/newsroom-contract';

/** 'newsroom.keep' through the app's dispatcher (issue #35, point 6): ben keeps ana's transcript. */
const server = useNewsroomServer();
beforeAll(() => setUpSampleNewsroom(server()));

const app = useAppTestbeds();

async function publishWithRecording(transcriptId: string, recording: Uint8Array<ArrayBuffer>): Promise<void> {
  const connection = connectionAs(server(), 'ana');
  try {
    const archive = new NewsroomArchive(connection);
    await archive.apply({
      kind: 'publish',
      publication: samplePublication(transcriptId, 1, {
        title: 'The harbour master',
        audio: {
          byteLength: recording.byteLength,
          sha256: createHash('sha256').update(recording).digest('hex'),
          mimeType: 'audio/wav',
        },
      }),
    });
    await archive.putAudioChunk({
      transcriptId,
      revision: 1,
      clip: 'recording',
      chunkIndex: 0,
      bytes: recording,
    });
  } finally {
    await connection.close();
  }
}

describe("keeping a colleague's transcript from the app", () => {
  it('saves a read-only copy with its recording, tells every window, and refuses its corrections in main', async () => {
    const recording = new Uint8Array(randomBytes(3000));
    await publishWithRecording('harbour', recording);
    const { dataDir, events, call, failure } = app();
    await call('newsroom.setSettings', { address: server().urlFor('ben'), password: passwordOf('ben') });

    const kept = await call<KeptNewsroomCopy>('newsroom.keep', { reporter: 'ana', transcriptId: 'harbour' });
    expect(kept).toMatchObject({ created: true, updated: false, revision: 1, hasAudio: true });
    const progress = events
      .filter((event) => event.event === 'newsroom.keepProgress')
      .map((event) => event.payload as NewsroomKeepProgress);
    expect(progress.at(-1)).toEqual({
      reporter: 'ana',
      transcriptId: 'harbour',
      bytes: 3000,
      totalBytes: 3000,
    });
    expect(events.some((event) => event.event === 'job.updated')).toBe(true);

    const detail = await call<TranscriptDetail>('transcripts.get', { id: kept.id });
    expect(detail.summary).toMatchObject({
      title: 'The harbour master',
      fromNewsroom: { reporter: 'ana', transcriptId: 'harbour', desk: 'City', revision: 1 },
    });
    expect(detail.summary.audioPath?.startsWith(join(dataDir, 'newsroom-audio'))).toBe(true);
    expect(Buffer.compare(readFileSync(detail.summary.audioPath!), recording)).toBe(0);

    // Keeping it again is a no-op.
    expect(await call('newsroom.keep', { reporter: 'ana', transcriptId: 'harbour' })).toEqual({
      ...kept,
      created: false,
    });

    const readOnly = expect.stringContaining(
      "A colleague's transcript from the newsroom: read only",
    ) as string;
    expect(
      await failure('corrections.edit', {
        id: kept.id,
        intent: { kind: 'text', from: 0, count: 1, text: 'No' },
      }),
    ).toMatchObject({ code: 'forbidden', message: readOnly });
    expect(
      await failure('transcripts.renameSpeaker', { id: kept.id, label: 'A', name: 'Someone' }),
    ).toMatchObject({ code: 'forbidden', message: readOnly });
    const published = await call<{ refused: { id: string; message: string }[] }>('newsroom.publish', {
      ids: [kept.id],
      desk: 'City',
      confidential: false,
    });
    expect(published.refused).toEqual([{ id: kept.id, message: readOnly }]);

    // Deleting the copy deletes the recording downloaded for it.
    await call('transcripts.delete', { id: kept.id });
    expect(existsSync(detail.summary.audioPath!)).toBe(false);
  });

  it('one the reporter may not see is not found, and nothing is kept', async () => {
    const { call, failure } = app();
    await call('newsroom.setSettings', { address: server().urlFor('dev'), password: passwordOf('dev') });
    await publishWithRecording('city-only', new Uint8Array(randomBytes(10)));
    expect(await failure('newsroom.keep', { reporter: 'ana', transcriptId: 'city-only' })).toMatchObject({
      code: 'not_found',
      message:
        'There is no transcript ana/city-only in the newsroom that you can see: check the reporter and the id (as newsroom search shows them).',
    });
    expect(await call('transcripts.list', {})).toEqual([]);
  });
});
