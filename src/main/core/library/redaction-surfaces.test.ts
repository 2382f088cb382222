import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TranscriptDetail } from '../../../shared/ipc/contract';
import { unwrap, type Envelope } from '../../../shared/ipc/envelope';
import { analysesAsShown } from '../../../shared/redaction';
import { composeServices } from '../../compose';
import { createDispatcher } from '../../ipc/dispatcher';
import { createHandlers } from '../../ipc/create-handlers';
import { MemorySecrets } from '../secrets/secret-store';
import { interviewPii, redactedInterview, storeRedactedInterview } from './redacted-interview.test-kit';

/**
 * The reader's analysis panels and the library's search, over the emulator's interview with the
 * phone number and email redacted: what the reader is sent (`transcripts.get`) turned into the
 * panels' content as the panels do, and search snippets as the library view shows them.
 */

const root = mkdtempSync(join(tmpdir(), 'verbatim-redaction-surfaces-'));
const services = composeServices({
  dataDir: root,
  appInfo: { name: 'Verbatim', version: '0', platform: 'linux' },
  secrets: new MemorySecrets({}),
});
const library = services.core.library;
const dispatch = createDispatcher(createHandlers(services));

beforeAll(async () => {
  await storeRedactedInterview(library, 'mayor');
});
afterAll(async () => {
  await services.close();
  rmSync(root, { recursive: true, force: true });
});

function expectHidden(text: string): void {
  expect(text).not.toContain(interviewPii.phone);
  expect(text.toLowerCase()).not.toContain(interviewPii.email);
}

describe('the fixture', () => {
  it('is the interview with the phone number and email said in clear and redacted in the words', () => {
    const { transcript, sentences } = redactedInterview();
    expect(transcript.unredacted_text).toContain(
      `call ${interviewPii.phone} or write to ${interviewPii.email}.`,
    );
    expect(transcript.text).toContain('call [PHONE_NUMBER] or write to [EMAIL_ADDRESS].');
    expect(sentences.map((s) => s.text)).toContain(
      'They can call [PHONE_NUMBER] or write to [EMAIL_ADDRESS].',
    );
    // The service leaves them in its analyses, which is why every surface must hide them.
    expect(JSON.stringify(transcript.entities)).toContain(interviewPii.phone);
    expect(JSON.stringify(transcript.sentiment_analysis_results)).toContain(interviewPii.email);
  });
});

describe('the reader’s analysis panels', () => {
  async function panels(choice: 'redacted' | 'original') {
    const detail = unwrap((await dispatch('transcripts.get', { id: 'mayor' })) as Envelope<TranscriptDetail>);
    return analysesAsShown(
      detail.transcript,
      choice,
      detail.sentences.flatMap((sentence) => sentence.words),
    );
  }

  it('show the entities, key phrases, sentiment and every other panel text redacted by default', async () => {
    const shown = await panels('redacted');
    expectHidden(JSON.stringify(shown));
    expect(shown.entities.map((e) => [e.text, e.detail])).toContainEqual(['Elena Alvarez', 'person name']);
    expect(JSON.stringify(shown.entities)).not.toMatch(/PHONE_NUMBER|EMAIL_ADDRESS/);
    expect(shown.redactedEntities).toEqual([
      { kind: 'phone number', count: 1 },
      { kind: 'e-mail', count: 1 },
    ]);
    expect(shown.sentiment.map((s) => s.text)).toContain(
      'They can call [PHONE_NUMBER] or write to [EMAIL_ADDRESS].',
    );
    expect(shown.hasUnredacted).toBe(true);
  });

  it('show the phone number and email when the journalist turns on the unredacted text', async () => {
    const shown = await panels('original');
    expect(shown.entities.map((e) => e.text)).toEqual(
      expect.arrayContaining([interviewPii.phone, interviewPii.email]),
    );
  });
});

describe('library search snippets', () => {
  it('quote the redacted sentence, and the details themselves find nothing', async () => {
    const page = await library.search('call');
    const snippets = page.hits.map((hit) => hit.snippet.map((part) => part.text).join(''));
    expect(snippets).toContain('They can call [PHONE_NUMBER] or write to [EMAIL_ADDRESS].');
    for (const query of [interviewPii.phone, interviewPii.email, '0142', 'porthollow']) {
      expect((await library.search(query)).total).toBe(0);
    }
    expectHidden(JSON.stringify((await library.search('mayor')).hits));
  });
});
