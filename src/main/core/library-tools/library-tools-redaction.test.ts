import { beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../library/database';
import { Library } from '../library/library';
import { interviewPii, storeRedactedInterview } from '../library/redacted-interview.test-kit';
import { runTool } from './library-tools';

/**
 * What the library tools hand a model (Ask) or the voice agent about a transcript whose phone
 * number and email were redacted: the redacted words only. Whatever a tool returns leaves the
 * machine for the gateway or the agent, so no tool may read the unredacted words or the service's
 * analyses, which carry the details in clear.
 */

let library: Library;
beforeAll(async () => {
  library = new Library(openDatabase(':memory:'));
  await storeRedactedInterview(library, 'mayor');
});

function expectHidden(result: unknown): string {
  const text = JSON.stringify(result);
  expect(text).not.toContain(interviewPii.phone);
  expect(text.toLowerCase()).not.toContain(interviewPii.email);
  return text;
}

describe('library tools over a redacted transcript', () => {
  it('search_library quotes the redacted sentence, and the details themselves find nothing', async () => {
    const found = expectHidden(await runTool(library, 'search_library', { query: 'call' }));
    expect(found).toContain('They can call [PHONE_NUMBER] or write to [EMAIL_ADDRESS].');
    for (const query of [interviewPii.phone, interviewPii.email]) {
      expect(await runTool(library, 'search_library', { query })).toMatchObject({ total: 0, quotes: [] });
    }
  });

  it('read_passage reads the redacted sentences of the whole interview', async () => {
    const passage = expectHidden(
      await runTool(library, 'read_passage', { transcript_id: 'mayor', start_ms: 0, end_ms: 600_000 }),
    );
    expect(passage).toContain('"speaker":"Mayor Elena Alvarez"');
    expect(passage).toContain('They can call [PHONE_NUMBER] or write to [EMAIL_ADDRESS].');
  });

  it('list_recent_transcripts names the transcript and its speakers, nothing said in it', async () => {
    const recent = expectHidden(await runTool(library, 'list_recent_transcripts', JSON.stringify({})));
    expect(recent).toContain('Interview with the mayor');
  });
});
