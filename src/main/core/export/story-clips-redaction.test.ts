import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeAudio } from '../../../../test/emulator/speech/wav-decode';
import { unwrap, type Envelope } from '../../../shared/ipc/envelope';
import { composeServices } from '../../compose';
import { createDispatcher } from '../../ipc/dispatcher';
import { createHandlers } from '../../ipc/create-handlers';
import { redactedInterviewRecording, storeRedactedInterview } from '../library/redacted-interview.test-kit';
import { redactedWordSpans } from '../media/redacted-recording';
import { MemorySecrets } from '../secrets/secret-store';

/**
 * A story's clips of a redacted quote ("They can call [PHONE_NUMBER] or write to
 * [EMAIL_ADDRESS].") as the Stories view's Export… cuts them (`stories.export` with a clips
 * folder), read back sample by sample: silent over the redacted words and the recording's own
 * elsewhere, or the service's redacted recording where it made one.
 */
const interview = resolve(import.meta.dirname, '../../../../test/fixtures/interview-ferry-contract.wav');
const root = mkdtempSync(join(tmpdir(), 'verbatim-story-clips-redaction-'));
const services = composeServices({
  dataDir: join(root, 'data'),
  appInfo: { name: 'Verbatim', version: '0', platform: 'linux' },
  secrets: new MemorySecrets({}),
});
const { library } = services.core;
const dispatch = createDispatcher(createHandlers(services));
const call = async <T>(method: string, input: unknown): Promise<T> =>
  unwrap((await dispatch(method, input)) as Envelope<T>);

/** A story of one quote: the sentence with the phone number and the email address. */
async function storyOfTheRedactedQuote(id: string): Promise<{ story: number; startMs: number }> {
  const sentence = (await library.sentences(id)).find((s) => s.text.includes('[PHONE_NUMBER]'));
  if (!sentence) throw new Error('The interview has no redacted sentence.');
  const highlight = await library.createHighlight({
    transcriptId: id,
    startMs: sentence.startMs,
    endMs: sentence.endMs,
  });
  const story = await library.createStory(`Ferry (${id})`);
  await library.addQuoteToStory(story.id, highlight.id);
  return { story: story.id, startMs: sentence.startMs };
}

async function clipOf(story: number): Promise<Buffer> {
  const folder = mkdtempSync(join(root, 'clips-'));
  const result = await call<{ clips: { written: { path: string }[]; skipped: unknown[] } }>(
    'stories.export',
    {
      id: story,
      format: 'md',
      path: join(folder, 'story.md'),
      clipsFolder: join(folder, 'clips'),
    },
  );
  expect(result.clips.skipped).toEqual([]);
  expect(readdirSync(join(folder, 'clips'))).toHaveLength(1);
  return readFileSync(result.clips.written[0]!.path);
}

beforeAll(async () => {
  for (const id of ['silenced', 'beeped']) {
    await storeRedactedInterview(library, id);
    await library.relink(id, interview);
  }
  const recording = Buffer.from(redactedInterviewRecording({ redact_pii_audio: true }));
  await services.core.redactedAudio.keep('beeped', `data:audio/wav;base64,${recording.toString('base64')}`);
});
afterAll(async () => {
  await services.close();
  rmSync(root, { recursive: true, force: true });
});

describe('the clip of a redacted quote', () => {
  it('is silent over the phone number and the address, and the recording’s own sound everywhere else', async () => {
    const { story, startMs } = await storyOfTheRedactedQuote('silenced');
    const clip = decodeAudio(await clipOf(story));
    const source = decodeAudio(readFileSync(interview));
    const rate = source.sampleRate;
    const spans = redactedWordSpans(
      await library.transcriptJson('silenced'),
      (await library.sentences('silenced')).flatMap((s) => s.words),
    );
    const first = Math.floor((startMs * rate) / 1000);
    const samples = clip.channels[0]!;
    const recorded = source.channels[0]!;
    const inside = (frame: number): boolean =>
      spans.some((span) => frame * 1000 < span.end * rate && (frame + 1) * 1000 > span.start * rate);
    let silent = 0;
    let heard = 0;
    for (let index = 0; index < samples.length; index++) {
      const frame = first + index;
      if (inside(frame)) {
        if (samples[index] !== 0) expect.fail(`the clip is heard at frame ${frame}, inside a redacted word`);
        if (recorded[frame] !== 0) silent++;
      } else {
        if (samples[index] !== recorded[frame])
          expect.fail(`the clip changed frame ${frame}, outside every redacted word`);
        heard++;
      }
    }
    // Both details were spoken in the quote, and the rest of it is still there to hear.
    expect(silent).toBeGreaterThan(rate);
    expect(heard).toBeGreaterThan(rate);
  });

  it('is cut from the service’s redacted recording when it made one', async () => {
    const { story, startMs } = await storyOfTheRedactedQuote('beeped');
    const clip = decodeAudio(await clipOf(story)).channels[0]!;
    const service = decodeAudio(readFileSync((await services.core.redactedAudio.pathOf('beeped'))!));
    const first = Math.floor((startMs * service.sampleRate) / 1000);
    const expected = service.channels[0]!.subarray(first, first + clip.length);
    expect(
      Buffer.from(clip.buffer, clip.byteOffset, clip.byteLength).equals(
        Buffer.from(expected.buffer, expected.byteOffset, expected.byteLength),
      ),
    ).toBe(true);
    // And not from the original, which says the number.
    const original = decodeAudio(readFileSync(interview)).channels[0]!.subarray(first, first + clip.length);
    expect(
      Buffer.from(clip.buffer, clip.byteOffset, clip.byteLength).equals(
        Buffer.from(original.buffer, original.byteOffset, original.byteLength),
      ),
    ).toBe(false);
  });
});
