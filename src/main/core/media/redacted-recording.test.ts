import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../../../test/emulator/server';
import { decodeAudio } from '../../../../test/emulator/speech/wav-decode';
import { createCore, type Core } from '../app-core';
import { acceleratedClock } from '../../base/clock';
import { storeRedactedInterview } from '../library/redacted-interview.test-kit';
import { serveFileRange } from './file-range';
import { type PlayableRecording, redactedWordSpans } from './redacted-recording';

/**
 * What a player of the library is served for a redacted transcript, through the same core the
 * app, the web host and the CLI build, against the service emulator: the service's redacted
 * recording kept when it made one, else the recording with every redacted word silenced; the
 * original only when asked for.
 */
const speed = 400;
const interview = resolve(import.meta.dirname, '../../../../test/fixtures/interview-ferry-contract.wav');
const root = mkdtempSync(join(tmpdir(), 'verbatim-redacted-recording-'));
let emulator: RunningEmulator;
let core: Core;
const logged: string[] = [];

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, speed });
  const line = (message: string): void => void logged.push(message);
  const logger = { debug: line, info: line, warn: line, error: line, child: () => logger };
  core = createCore({
    dataDir: join(root, 'data'),
    apiKey: () => emulator.options.key,
    transcriptionUrl: () => emulator.url,
    clock: acceleratedClock(speed),
    requestsPerSecond: 50,
    logger,
  });
});
afterAll(async () => {
  await core.close();
  await emulator.close();
  rmSync(root, { recursive: true, force: true });
});

const redactPhoneAndEmail = {
  redact_pii: true,
  redact_pii_policies: ['phone_number', 'email_address'],
  redact_pii_sub: 'entity_name',
};

async function transcribed(options: Record<string, unknown>): Promise<string> {
  const job = await core.scheduler.submit({
    source: { kind: 'file', path: interview },
    options,
    region: 'us',
  });
  await core.scheduler.idle();
  expect((await core.library.get(job.id))?.status).toBe('completed');
  return job.id;
}

async function served(recording: PlayableRecording | undefined): Promise<Buffer> {
  if (recording?.kind !== 'file') throw new Error(`nothing to play: ${JSON.stringify(recording)}`);
  const response = await serveFileRange(recording.path, undefined, recording.rewrite);
  const chunks: Buffer[] = [];
  for await (const chunk of (response.body ?? []) as Readable) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The spans of the words the stored transcript shows redacted. */
async function redactedSpansOf(id: string) {
  const sentences = await core.library.sentences(id);
  return redactedWordSpans(
    await core.library.transcriptJson(id),
    sentences.flatMap((sentence) => sentence.words),
  );
}

describe('a redacted transcript’s recording, as a player is served it', () => {
  it('is silent over every redacted word and the recording elsewhere, when the service made no redacted recording', async () => {
    const id = await transcribed(redactPhoneAndEmail);
    const spans = await redactedSpansOf(id);
    // "call [PHONE_NUMBER] or write to [EMAIL_ADDRESS]."
    expect(spans).toHaveLength(2);

    const original = decodeAudio(readFileSync(interview));
    const heard = decodeAudio(await served(await core.recordingOf(id, 'redacted')));
    const rate = original.sampleRate;
    const samples = heard.channels[0]!;
    const recorded = original.channels[0]!;
    expect(samples.length).toBe(recorded.length);
    const inside = (frame: number): boolean =>
      spans.some((span) => frame * 1000 < span.end * rate && (frame + 1) * 1000 > span.start * rate);
    let silenced = 0;
    for (let frame = 0; frame < samples.length; frame++) {
      if (inside(frame)) {
        expect(samples[frame]).toBe(0);
        silenced++;
      } else if (samples[frame] !== recorded[frame]) {
        expect.fail(`frame ${frame} was changed outside every redacted word`);
      }
    }
    // The number and the address were said: their words held sound that is now gone.
    expect(silenced).toBeGreaterThan(rate);
    expect(recorded.some((sample, frame) => inside(frame) && sample !== 0)).toBe(true);

    // The reader's "Show unredacted text" asks for the original, and gets it as it is.
    expect((await served(await core.recordingOf(id, 'original'))).equals(readFileSync(interview))).toBe(true);
  });

  it('is the service’s own redacted recording, kept in the data folder, when it made one', async () => {
    const id = await transcribed({ ...redactPhoneAndEmail, redact_pii_audio: true });
    const kept = await core.redactedAudio.pathOf(id);
    expect(kept).not.toBeNull();
    // Byte for byte what the service hands over at the address it gives.
    const remoteId = (await core.library.get(id))?.remoteId ?? '';
    const { redacted_audio_url: url } = await core.clientFor('us').redactedAudio(remoteId);
    const fromService = Buffer.from(await (await fetch(url)).arrayBuffer());
    expect(readFileSync(kept!).equals(fromService)).toBe(true);
    expect((await served(await core.recordingOf(id, 'redacted'))).equals(fromService)).toBe(true);
    // Its redacted words beep: the service's recording, not the original's sound.
    const spans = await redactedSpansOf(id);
    const original = decodeAudio(readFileSync(interview)).channels[0]!;
    const beeped = decodeAudio(fromService).channels[0]!;
    const rate = decodeAudio(fromService).sampleRate;
    const phone = spans[0]!;
    const at = Math.floor(((phone.start + phone.end) / 2) * (rate / 1000));
    expect(
      Buffer.from(beeped.subarray(at, at + 100)).equals(Buffer.from(original.subarray(at, at + 100))),
    ).toBe(false);

    // Deleting the transcript takes its redacted recording with it.
    await core.redactedAudio.remove(id);
    expect(await core.redactedAudio.pathOf(id)).toBeNull();
  });

  it('is silenced all the same when the service’s redacted recording could not be fetched, and the log says so', async () => {
    await fetch(`${emulator.url}/__admin/faults`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify([{ method: 'GET', path: '^/v2/redacted-audio/', kind: 'status', status: 403 }]),
    });
    const id = await transcribed({ ...redactPhoneAndEmail, redact_pii_audio: true });
    expect(await core.redactedAudio.pathOf(id)).toBeNull();
    expect(logged.join('\n')).toContain(`job ${id}: the service's redacted recording was not kept`);
    const playable = await core.recordingOf(id, 'redacted');
    expect(playable).toMatchObject({ kind: 'file', path: interview });
    expect(playable?.kind === 'file' && playable.rewrite?.ranges).toHaveLength(2);
  });

  it('is refused when it cannot be silenced (not WAV), with a sentence that says why; the original still plays', async () => {
    await storeRedactedInterview(core.library, 'mp3-interview');
    const mp3 = join(root, 'interview.mp3');
    writeFileSync(
      mp3,
      Buffer.concat([Buffer.from('ID3\x04\x00\x00\x00\x00\x00\x00', 'latin1'), Buffer.alloc(500)]),
    );
    await core.library.relink('mp3-interview', mp3);
    const refused = await core.recordingOf('mp3-interview', 'redacted');
    expect(refused).toEqual({
      kind: 'refused',
      reason: expect.stringContaining('can silence its redacted words only in a WAV recording') as string,
    });
    expect(await core.recordingOf('mp3-interview', 'original')).toEqual({ kind: 'file', path: mp3 });
  });

  it('is the recording as it is for a transcript without redaction', async () => {
    const id = await transcribed({ speaker_labels: true });
    expect(await core.recordingOf(id, 'redacted')).toEqual({ kind: 'file', path: interview });
    expect(await core.recordingOf('no-such-transcript', 'redacted')).toBeUndefined();
  });
});

describe('the redacted words of a transcript', () => {
  const words = [
    { start: 0, end: 300, text: 'call' },
    { start: 300, end: 900, text: '###-####' },
    { start: 900, end: 1_500, text: '[EMAIL_ADDRESS].' },
    { start: 1_500, end: 1_800, text: '#1' },
  ];

  it('are the words with the service’s marks, in the service’s words and in the corrected ones', () => {
    // A correction retyped the number's word: the number was still said there.
    const corrected = [words[0]!, { start: 300, end: 900, text: 'the number' }, words[2]!];
    expect(redactedWordSpans({ redact_pii: true, words }, corrected)).toEqual([
      { start: 300, end: 900 },
      { start: 900, end: 1_500 },
      { start: 1_500, end: 1_800 },
    ]);
  });

  it('are none in a transcript the service did not redact, whatever its words read', () => {
    expect(redactedWordSpans({ words }, words)).toEqual([]);
    expect(redactedWordSpans(undefined, words)).toEqual([]);
  });
});
