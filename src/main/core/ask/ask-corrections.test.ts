import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../../../test/emulator/server';
import type { Core } from '../app-core';
import { correctedTranscriptText } from './ask-engine';
import type { AskService } from './ask-service';
import { closeAskTestbed, startAskTestbed, type AskTestbed } from './ask-testbed.test-kit';

/**
 * Ask reads the corrected transcript: the service's stored copy does not know local
 * corrections, so once there are some the gateway request carries the corrected text instead
 * of transcript_id; without corrections (or after they are undone) it still sends the id. What
 * was sent is read from the emulator's own request log.
 */
let testbed: AskTestbed;
let emulator: RunningEmulator;
let core: Core;
let service: AskService;
let transcriptId: string;
let requests = 0;

beforeAll(async () => {
  testbed = await startAskTestbed({
    folderPrefix: 'verbatim-ask-corrections-',
    options: { speaker_labels: true },
  });
  ({ emulator, core, service, transcriptId } = testbed);
}, 60_000);

afterAll(() => closeAskTestbed(testbed));

interface SentRequest {
  transcript_id?: string;
  messages: { role: string; content: string | null }[];
}

/** Asks a question and returns the gateway requests the emulator logged for it. */
async function askAndReadLog(question: string): Promise<{ status: number; body: SentRequest }[]> {
  await fetch(`${emulator.url}/__admin/requests`, { method: 'DELETE' });
  await service.send({ requestId: `request-${(requests += 1)}`, transcriptId, question, stream: false });
  const log = (await (await fetch(`${emulator.url}/__admin/requests`)).json()) as {
    requests: { method: string; path: string; status: number; body?: unknown }[];
  };
  return log.requests
    .filter((r) => r.method === 'POST' && r.path === '/v1/chat/completions')
    .map((r) => ({ status: r.status, body: r.body as SentRequest }));
}

describe('Ask about a corrected transcript', () => {
  it('sends the id without corrections, the corrected text with them, and the id again once they are undone', async () => {
    const job = (await core.library.get(transcriptId))!;
    const [byId] = await askAndReadLog('Who signed the contract?');
    expect(byId?.status).toBe(200);
    expect(byId?.body.transcript_id).toBe(job.remoteId);
    expect(byId?.body.messages[0]?.content).toContain('{{ transcript }}');

    const [first] = await core.library.sentences(transcriptId);
    await core.library.edit(transcriptId, {
      kind: 'text',
      from: 0,
      count: 1,
      text: `${first!.text} Councillor Kowalczyk agreed.`,
    });
    await core.library.renameSpeaker(transcriptId, first!.speaker!, 'Mayor Elena Alvarez');
    const [withText] = await askAndReadLog('Who signed the contract?');
    expect(withText?.status).toBe(200);
    expect(withText?.body).not.toHaveProperty('transcript_id');
    const system = withText?.body.messages[0]?.content ?? '';
    expect(system).not.toContain('{{ transcript }}');
    expect(system).toContain('The transcript, as the journalist corrected it:');
    expect(system).toContain(`Mayor Elena Alvarez: ${first!.text} Councillor Kowalczyk agreed.`);
    // Every corrected sentence is there, not only the one edited.
    for (const sentence of await core.library.sentences(transcriptId))
      expect(system).toContain(sentence.text);

    await core.library.undo(transcriptId);
    const [byIdAgain] = await askAndReadLog('And then?');
    expect(byIdAgain?.body.transcript_id).toBe(job.remoteId);
    expect(JSON.stringify(byIdAgain?.body)).not.toContain('Kowalczyk');
  }, 60_000);
});

describe('correctedTranscriptText', () => {
  it('writes a paragraph for each turn, with the speaker’s name', () => {
    const names = new Map([['A', 'Mayor Elena Alvarez']]);
    expect(
      correctedTranscriptText(
        [
          { speaker: 'A', text: 'Good morning.' },
          { speaker: 'A', text: 'The ferry is late.' },
          { speaker: 'B', text: 'It is.' },
          { speaker: null, text: 'Applause.' },
        ],
        (label) => names.get(label) ?? `Speaker ${label}`,
      ),
    ).toBe('Mayor Elena Alvarez: Good morning. The ferry is late.\n\nSpeaker B: It is.\n\nApplause.');
  });
});
