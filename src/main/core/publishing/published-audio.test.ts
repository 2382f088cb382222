import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { composeServices } from '../../compose';
import { libraryRecordings } from '../export/library-story-export';
import { exportStoryClips } from '../export/story-clips';
import {
  completedTranscriptFromLines,
  misheardTimings,
  storeFinished,
} from '../library/completed-transcript.test-kit';
import { passwordOf, setUpSampleNewsroom } from '../newsroom/newsroom-archive.test-kit';
import { useNewsroomServer } from '../newsroom/newsroom-server.test-kit';
import { MemorySecrets } from '../secrets/secret-store';

/**
 * Where publishing and the story clips meet (issue #35, point 4): for any highlights, each clip
 * the archive holds is byte for byte the clip a story export cuts of the same span, so an editor
 * checking a quote hears exactly what the reporter's export gives.
 */
const interview = resolve(import.meta.dirname, '../../../../test/fixtures/interview-ferry-contract.wav');
const server = useNewsroomServer();
const root = mkdtempSync(join(tmpdir(), 'verbatim-published-audio-'));
const services = composeServices({
  dataDir: join(root, 'data'),
  appInfo: { name: 'Verbatim', version: '0', platform: 'linux' },
  secrets: new MemorySecrets({}),
  newsroomAccess: () => ({ address: { ...server().admin, user: 'ana' }, password: passwordOf('ana') }),
});
const { library } = services.core;

beforeAll(async () => {
  await setUpSampleNewsroom(server());
  const lines = Array.from(
    { length: 20 },
    (_, n) => [n % 2 === 0 ? 'A' : 'B', `The ferry line ${n} sails at dawn today.`, n * 3000] as const,
  );
  await storeFinished(
    library,
    'ferry',
    'Ferry interview',
    completedTranscriptFromLines(lines, misheardTimings, {
      transcript: { id: 'remote-ferry', language_code: 'en' },
    }),
  );
  await library.relink('ferry', interview);
});
afterAll(() => services.close());

async function archivedClip(ordinal: number): Promise<Buffer> {
  const { rows } = await server().pool.query<{ bytes: Buffer }>(
    `SELECT bytes FROM verbatim.published_audio_chunks
      WHERE reporter = 'ana' AND transcript_id = 'ferry' AND clip = $1 ORDER BY chunk_index`,
    [`highlight ${ordinal}`],
  );
  return Buffer.concat(rows.map((row) => row.bytes));
}

describe('a published highlight’s clip', () => {
  it('is, for any spans, the clip a story export cuts of the same span', async () => {
    await fc.assert(
      fc.asyncProperty(
        // From any word to any later one within the next 30, with a few milliseconds either side.
        fc.array(
          fc.record({
            first: fc.nat(),
            words: fc.integer({ min: 1, max: 30 }),
            before: fc.integer({ min: 0, max: 40 }),
            after: fc.integer({ min: 0, max: 40 }),
          }),
          { minLength: 1, maxLength: 3 },
        ),
        async (spans) => {
          const words = (await library.sentences('ferry')).flatMap((sentence) => sentence.words);
          for (const old of await library.highlightsOf('ferry')) await library.deleteHighlight(old.id);
          for (const span of spans) {
            const first = span.first % words.length;
            const last = Math.min(words.length - 1, first + span.words - 1);
            await library.createHighlight({
              transcriptId: 'ferry',
              startMs: Math.max(0, words[first]!.start - span.before),
              endMs: words[last]!.end + span.after,
            });
          }
          const highlights = (await library.highlightsOf('ferry')).filter((highlight) => !highlight.missing);
          await services.newsroom.publish('ferry', { desk: 'City', confidential: false, withAudio: false });
          await services.newsroom.kick();
          expect(await library.newsroomPublication('ferry')).toMatchObject({ state: 'published' });

          const story = await library.createStory(`Ferry ${Date.now()} ${Math.random()}`);
          for (const highlight of highlights) await library.addQuoteToStory(story.id, highlight.id);
          const exported = await exportStoryClips(
            await library.story(story.id),
            mkdtempSync(join(root, 'clips-')),
            libraryRecordings(library, services.core.redactions),
            { replace: false },
          );
          expect(exported.skipped).toEqual([]);
          const inStory = (await library.story(story.id)).items.filter((item) => item.kind === 'quote');
          for (const [ordinal, highlight] of highlights.entries()) {
            const number = inStory.findIndex((item) => item.highlightId === highlight.id) + 1;
            const clip = exported.written.find((written) => written.number === number);
            expect(clip, `highlight ${ordinal} was exported`).toBeDefined();
            expect((await archivedClip(ordinal)).equals(readFileSync(clip!.path))).toBe(true);
          }
        },
      ),
      { numRuns: 6 },
    );
  }, 120_000);
});
