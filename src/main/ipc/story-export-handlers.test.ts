import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unwrap } from '../../shared/ipc/envelope';
import { VerbatimError } from '../../shared/errors';
import { composeServices } from '../compose';
import { storeInterview } from '../core/export/library-fixture.test-kit';
import { readBack } from '../core/export/read-back.test-kit';
import { MemorySecrets } from '../core/secrets/secret-store';
import { createDispatcher } from './dispatcher';
import { createHandlers } from './create-handlers';

const root = mkdtempSync(join(tmpdir(), 'verbatim-story-export-ipc-'));
const services = composeServices({
  dataDir: join(root, 'data'),
  appInfo: { name: 'Verbatim', version: '0', platform: 'linux' },
  secrets: new MemorySecrets({}),
});
const dispatch = createDispatcher(createHandlers(services));
const call = async <T>(method: string, input: unknown): Promise<T> =>
  unwrap(await dispatch(method, input)) as T;
let storyId = 0;

beforeAll(async () => {
  const { library } = services.core;
  await storeInterview(library, 'ferry', 'Interview about the ferry contract');
  await library.renameSpeaker('ferry', 'B', 'Mayor Elena Alvarez');
  const signed = await library.createHighlight({ transcriptId: 'ferry', startMs: 8000, endMs: 10_500 });
  const story = await library.createStory('Ferry contract');
  await library.addQuoteToStory(story.id, signed.id);
  storyId = story.id;
});
afterAll(async () => {
  await services.close();
  rmSync(root, { recursive: true, force: true });
});

describe('stories.export', () => {
  it('saves the story read back as PDF with its citation, and says why no clip was cut', async () => {
    const path = join(root, 'ferry.pdf');
    const result = await call<{ path: string; clips: { written: unknown[]; skipped: { reason: string }[] } }>(
      'stories.export',
      { id: storyId, format: 'pdf', path, options: { timeZone: 'UTC' }, clipsFolder: join(root, 'clips') },
    );
    expect(result.path).toBe(path);
    expect(result.clips.written).toEqual([]);
    expect(result.clips.skipped[0]?.reason).toContain('(it was transcribed from a link)');
    const text = (await readBack('pdf', readFileSync(path))).replace(/\s+/g, ' ');
    expect(text).toMatch(
      /“The ferry contract was signed in March\.” — Mayor Elena Alvarez, “Interview about the ferry contract”, [A-Z][a-z]{2} \d{1,2}, \d{4}, 00:00:08/,
    );
  });

  it('refuses a citation style with an unknown fact at the boundary, in plain words', async () => {
    const error = await call('stories.export', {
      id: storyId,
      format: 'txt',
      path: join(root, 'bad.txt'),
      options: { citation: '{speaker} {town}' },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VerbatimError);
    expect((error as VerbatimError).code).toBe('invalid_input');
    expect((error as VerbatimError).message).toContain('{town}, which is not a fact Verbatim knows');
    expect(readdirSync(root)).not.toContain('bad.txt');
  });

  it('asks for a whole path', async () => {
    const error = await call('stories.export', { id: storyId, format: 'md', path: 'story.md' }).catch(
      (e: unknown) => e,
    );
    expect((error as VerbatimError).message).toContain('Give the full path');
  });
});
