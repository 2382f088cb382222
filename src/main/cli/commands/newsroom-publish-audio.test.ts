import { readFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { decodeAudio } from '../../../../test/emulator/speech/wav-decode';
import { cutWav, inspectWav, silenceOver } from '../../core/export/wav-clip';
import { storeRedactedInterview } from '../../core/library/redacted-interview.test-kit';
import { fillRanges } from '../../core/media/file-range';
import { redactedWordSpans } from '../../core/media/redacted-recording';
import { setUpSampleNewsroom } from '../../core/newsroom/newsroom-archive.test-kit';
import { useNewsroomServer } from '../../core/newsroom/newsroom-server.test-kit';
import type { CliRun } from '../cli-process.test-kit';
import {
  archivedAudio,
  countChunkTries,
  newsroomRun,
  reporterEnv,
  reporterFolder,
  startNewsroomRun,
  type ReporterFolder,
} from './newsroom-publish.test-kit';

/**
 * `newsroom publish --with-audio` (issue #35, point 4) through real command-line processes
 * against a real PostgreSQL: the recording goes as its player plays it (redacted when the
 * transcript is), each highlight's clip always goes, an upload killed midway resumes without
 * sending a chunk twice, and a recording that is gone or too large is said in words.
 */
const interview = resolve(import.meta.dirname, '../../../../test/fixtures/interview-ferry-contract.wav');
const server = useNewsroomServer();
beforeAll(() => setUpSampleNewsroom(server()));

/** A reporter's folder whose interview `id` is recorded in the ferry interview, with two highlights. */
async function recordedInterview(id: string): Promise<ReporterFolder> {
  const folder = await reporterFolder(1, id);
  await folder.library.relink(folder.ids[0]!, interview);
  for (const [startMs, endMs] of [
    [0, 2_500],
    [3_000, 5_800],
  ] as const)
    await folder.library.createHighlight({ transcriptId: folder.ids[0]!, startMs, endMs });
  return folder;
}

/** The clip an export cuts of [startMs, endMs] from `bytes` (a whole WAV file as published). */
async function clipOfFile(path: string, startMs: number, endMs: number, silenced = false): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    const inspected = await inspectWav(handle, (await handle.stat()).size);
    if (!inspected.ok) throw new Error(inspected.reason);
    const spans = silenced ? redactedSpansOfTheMayor : [];
    return Buffer.from(await cutWav(handle, inspected.layout, startMs, endMs, spans));
  } finally {
    await handle.close();
  }
}

let redactedSpansOfTheMayor: { start: number; end: number }[] = [];

describe('newsroom publish --with-audio', () => {
  it('sends the recording byte for byte and each highlight’s clip, and says so', async () => {
    const folder = await recordedInterview('audio');
    const id = folder.ids[0]!;
    const run = await newsroomRun(
      ['publish', id, '--desk', 'City', '--with-audio'],
      reporterEnv(server(), folder, 'ana'),
    );
    expect(run).toMatchObject({
      code: 0,
      stderr: '',
      stdout: `"Harbour interview ${id}" (${id}): published rev 1.\n`,
    });
    expect((await archivedAudio(server(), 'ana', id, 'recording')).equals(readFileSync(interview))).toBe(
      true,
    );
    const highlights = await folder.library.highlightsOf(id);
    expect(highlights).toHaveLength(2);
    for (const [n, { startMs, endMs }] of highlights.entries())
      expect(await archivedAudio(server(), 'ana', id, `highlight ${n}`)).toEqual(
        await clipOfFile(interview, startMs, endMs),
      );
    const { rows } = await server().pool.query<{ audio_bytes: string; audio_mime_type: string }>(
      `SELECT audio_bytes, audio_mime_type FROM verbatim.published_transcripts WHERE reporter = 'ana' AND transcript_id = $1`,
      [id],
    );
    expect(rows[0]).toEqual({
      audio_bytes: String(readFileSync(interview).length),
      audio_mime_type: 'audio/wav',
    });
  });

  it('sends each highlight’s clip even without --with-audio, and not the recording', async () => {
    const folder = await recordedInterview('clipsonly');
    const id = folder.ids[0]!;
    const run = await newsroomRun(['publish', id, '--desk', 'City'], reporterEnv(server(), folder, 'ana'));
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect((await archivedAudio(server(), 'ana', id, 'recording')).length).toBe(0);
    const second = (await folder.library.highlightsOf(id))[1]!;
    expect(await archivedAudio(server(), 'ana', id, 'highlight 1')).toEqual(
      await clipOfFile(interview, second.startMs, second.endMs),
    );
  });

  it('killed mid-upload, the next run sends only the chunks the archive lacks, each once', async () => {
    const tries = await countChunkTries(server());
    const folder = await recordedInterview('killed');
    const id = folder.ids[0]!;
    const env = { ...reporterEnv(server(), folder, 'ben'), VERBATIM_NEWSROOM_AUDIO_CHUNK_BYTES: '8192' };
    const publish = startNewsroomRun(['publish', id, '--desk', 'City', '--with-audio'], env);
    let ended: CliRun | undefined;
    void publish.finished.then((result) => (ended = result));
    // Once some of the recording's chunks are in the archive: midway through its upload.
    while (!ended && (await archivedAudio(server(), 'ben', id, 'recording')).length < 200_000)
      await new Promise((next) => setTimeout(next, 10));
    expect(ended, 'the upload ended before it could be killed').toBeUndefined();
    publish.child.kill('SIGKILL');
    await publish.finished;
    expect(await folder.library.newsroomOutboxSize()).toBe(1);
    const restart = await newsroomRun(['outbox', '--send'], env);
    expect(restart).toMatchObject({ code: 0, stdout: 'Nothing waits to be sent to the newsroom.\n' });
    expect((await archivedAudio(server(), 'ben', id, 'recording')).equals(readFileSync(interview))).toBe(
      true,
    );
    const sent = [...(await tries())].filter(([key]) => key.startsWith(`${id} recording `));
    expect(sent).toHaveLength(Math.ceil(readFileSync(interview).length / 8192));
    expect(sent.filter(([, count]) => count !== 1)).toEqual([]);
    expect(await folder.library.newsroomPublication(id)).toMatchObject({
      state: 'published',
      audioNote: null,
    });
  }, 60_000);

  it('publishes without the recording when its file is gone, and says why', async () => {
    const folder = await recordedInterview('moved');
    const id = folder.ids[0]!;
    await folder.library.relink(id, '/nowhere/interview-ferry-contract.wav');
    const run = await newsroomRun(
      ['publish', id, '--desk', 'City', '--with-audio'],
      reporterEnv(server(), folder, 'ana'),
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      `published rev 1. "Harbour interview ${id}" was published without its recording: it is no longer at /nowhere/interview-ferry-contract.wav`,
    );
    expect(await folder.library.newsroomPublication(id)).toMatchObject({
      state: 'published',
      audioNote: expect.stringContaining('without its recording') as unknown,
    });
  });

  it('over the newsroom’s limit, fails with the archive’s sentence', async () => {
    const folder = await recordedInterview('large');
    const id = folder.ids[0]!;
    await server().pool.query('UPDATE verbatim.archive_settings SET max_audio_bytes = 1000000');
    try {
      const run = await newsroomRun(
        ['publish', id, '--desk', 'City', '--with-audio'],
        reporterEnv(server(), folder, 'ana'),
      );
      expect(run).toMatchObject({
        code: 1,
        stdout: `"Harbour interview ${id}" (${id}): failed: This transcript's audio is larger than the 1 MB the newsroom takes for one transcript: publish it without its recording, or ask your newsroom's administrator to raise the limit.\n`,
      });
    } finally {
      await server().pool.query('UPDATE verbatim.archive_settings SET max_audio_bytes = DEFAULT');
    }
  });

  it('a redacted transcript’s recording and clips hold no sound at its redacted words', async () => {
    const folder = await reporterFolder(0, 'none');
    const id = 'redactedaudio';
    await storeRedactedInterview(folder.library, id);
    await folder.library.relink(id, interview);
    const sentence = (await folder.library.sentences(id)).find((s) => s.text.includes('[PHONE_NUMBER]'))!;
    await folder.library.createHighlight({
      transcriptId: id,
      startMs: sentence.startMs,
      endMs: sentence.endMs,
    });
    redactedSpansOfTheMayor = redactedWordSpans(
      await folder.library.transcriptJson(id),
      (await folder.library.sentences(id)).flatMap((s) => s.words),
    );
    expect(redactedSpansOfTheMayor.length).toBeGreaterThan(0);
    const run = await newsroomRun(
      ['publish', id, '--desk', 'City', '--with-audio'],
      reporterEnv(server(), folder, 'ana'),
    );
    expect(run).toMatchObject({ code: 0, stderr: '' });

    // The recording as its player plays it: the file with silence over every redacted word.
    const original = readFileSync(interview);
    const handle = await open(interview, 'r');
    const inspected = await inspectWav(handle, original.length);
    await handle.close();
    if (!inspected.ok) throw new Error(inspected.reason);
    const playable = Buffer.from(original);
    fillRanges(playable, 0, silenceOver(inspected.layout, redactedSpansOfTheMayor));
    const published = await archivedAudio(server(), 'ana', id, 'recording');
    expect(published.equals(playable)).toBe(true);
    expect(published.equals(original)).toBe(false);

    const rate = inspected.layout.sampleRate;
    const inside = (frame: number): boolean =>
      redactedSpansOfTheMayor.some(
        (span) => frame * 1000 < span.end * rate && (frame + 1) * 1000 > span.start * rate,
      );
    const recorded = decodeAudio(original).channels[0]!;
    const heard = decodeAudio(published).channels[0]!;
    let silenced = 0;
    for (let frame = 0; frame < heard.length; frame++)
      if (inside(frame)) {
        if (heard[frame] !== 0)
          expect.fail(`the published recording is heard at frame ${frame}, inside a redacted word`);
        if (recorded[frame] !== 0) silenced++;
      }
    expect(silenced).toBeGreaterThan(rate);

    const clip = await archivedAudio(server(), 'ana', id, 'highlight 0');
    expect(clip).toEqual(await clipOfFile(interview, sentence.startMs, sentence.endMs, true));
    const first = Math.floor((sentence.startMs * rate) / 1000);
    const samples = decodeAudio(clip).channels[0]!;
    for (let index = 0; index < samples.length; index++)
      if (inside(first + index) && samples[index] !== 0)
        expect.fail(`the published clip is heard at frame ${first + index}, inside a redacted word`);
  });
});
