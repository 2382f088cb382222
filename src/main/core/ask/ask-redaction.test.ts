import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultAskTemplates, type AskEntry } from '../../../shared/ask';
import type { Core } from '../app-core';
import { interviewPii, redactedInterviewOptions } from '../library/redacted-interview.test-kit';
import type { AskService } from './ask-service';
import { closeAskTestbed, startAskTestbed, type AskTestbed } from './ask-testbed.test-kit';

/**
 * Ask about a transcript whose phone number and email were redacted. The gateway gets the
 * transcript by reference and injects the service's (redacted) text; nothing Verbatim adds from
 * the machine (prompt, conversation, tool results) and nothing it shows (answers, quotes, claims,
 * tool calls) may carry the details in clear.
 */

let testbed: AskTestbed;
let core: Core;
let transcriptId: string;
let service: AskService;
const sent: string[] = [];
let requests = 0;

beforeAll(async () => {
  testbed = await startAskTestbed({
    folderPrefix: 'verbatim-ask-redaction-',
    options: {
      ...redactedInterviewOptions,
      redact_pii_policies: [...redactedInterviewOptions.redact_pii_policies],
    },
    fetch: (input, init) => {
      if (typeof init.body === 'string') sent.push(init.body);
      return fetch(input, init);
    },
  });
  ({ core, transcriptId, service } = testbed);
});
afterAll(() => closeAskTestbed(testbed));

function expectHidden(text: string): void {
  expect(text).not.toContain(interviewPii.phone);
  expect(text.toLowerCase()).not.toContain(interviewPii.email);
}

const ask = (question: string, extra: Record<string, unknown> = {}): Promise<AskEntry[]> =>
  service.send({ requestId: `request-${(requests += 1)}`, transcriptId, question, stream: false, ...extra });

describe('Ask about a redacted transcript', () => {
  it('answers from the redacted transcript and sends nothing in clear', async () => {
    // The transcript stored here does hold the details (the unredacted words, the entities).
    const stored = JSON.stringify(await core.library.transcriptJson(transcriptId));
    expect(stored).toContain(interviewPii.phone);

    // The emulated model quotes sentences of the transcript the gateway injected; ask until it
    // quotes the one with the phone number, which must arrive redacted.
    let quoted = '';
    for (let round = 0; round < 40 && !quoted.includes('[PHONE_NUMBER]'); round++) {
      const answer = (await ask(`What did they say? (${round})`)).at(-1);
      quoted = answer?.kind === 'answer' ? answer.text : '';
    }
    expect(quoted).toContain('They can call [PHONE_NUMBER] or write to [EMAIL_ADDRESS].');

    for (const template of defaultAskTemplates) {
      await ask(template.prompt, { label: template.label, format: template.format });
    }
    // A free question that makes the model call search_library, whose result goes back to it.
    const searched = await ask('Search the library for the ferry contract');
    expect(searched.some((entry) => entry.kind === 'tool' && entry.name === 'search_library')).toBe(true);

    expect(sent.length).toBeGreaterThan(defaultAskTemplates.length);
    for (const body of sent) {
      // By reference: the gateway, which holds the redacted transcript, fills it in.
      expect((JSON.parse(body) as { transcript_id?: unknown }).transcript_id).toBeTypeOf('string');
      expectHidden(body);
    }
    expectHidden(JSON.stringify(await service.conversation(transcriptId)));
  }, 60_000);
});
