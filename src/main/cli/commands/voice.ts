import { readdir, readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { VerbatimError } from '../../../shared/errors';
import { createCore, type Core } from '../../core/app-core';
import { acceleratedClock, systemClock } from '../../core/clock';
import { BufferSource, FileSink } from '../../core/voice/raw-file-audio';
import { bytesForMs } from '../../core/voice/pcm';
import {
  assistantConfig,
  assistantToolRunner,
  assistantTools,
  defaultAssistantPreferences,
} from '../../core/voice/voice-assistant';
import { voiceAddress } from '../../core/voice/voice-address';
import { VoiceSession, type VoiceEvent } from '../../core/voice/voice-session';
import { wsSocketFactory } from '../../core/voice/voice-socket';
import { UsageError } from '../usage-error';
import { inCommandLineTerms } from '../command-line-wording';

/**
 * `voice --input FILE.raw --output FILE.raw [--json]`: one voice agent session without a sound
 * card. The input (PCM16 mono 24 kHz) is streamed as a microphone would, the agent's voice is
 * written to the output, and every event is printed (one JSON object per line with --json).
 * The session ends once the input is over and the conversation has been quiet for a moment.
 */

export const voiceUsage =
  '  voice --input FILE.raw --output FILE.raw [--json]   (PCM16 mono 24 kHz; VERBATIM_VOICE_URL)';

export interface VoiceCliIo {
  out: (text: string) => void;
  err: (text: string) => void;
  env: NodeJS.ProcessEnv;
}

/** How long the conversation must stay quiet after the reply, in real time at speed 1. */
const QUIET_MS = 2000;
/** The silence sent when the input ends: the end of the file is the end of the speaker's turn. */
const END_OF_TURN_SILENCE_MS = 1500;
/** How long the agent may take to start answering once the turn ended, at speed 1. */
const REPLY_LIMIT_MS = 30_000;
/** The longest a headless session may run after its input ended. */
const SETTLE_LIMIT_MS = 120_000;

export async function runVoiceCli(args: string[], io: VoiceCliIo): Promise<number> {
  const { values } = parseArgs({
    args,
    strict: true,
    options: {
      input: { type: 'string' },
      output: { type: 'string' },
      json: { type: 'boolean', default: false },
    },
  });
  if (!values.input || !values.output)
    throw new UsageError('voice needs --input FILE.raw and --output FILE.raw');
  const apiKey = io.env.VERBATIM_API_KEY;
  if (!apiKey)
    throw new VerbatimError('unauthorized', 'Set VERBATIM_API_KEY to your transcription service key.');
  const speed = io.env.VERBATIM_TIME_SCALE ? Number(io.env.VERBATIM_TIME_SCALE) : 1;
  if (!(speed > 0)) throw new UsageError('VERBATIM_TIME_SCALE must be a positive number');
  const input = await readFile(resolve(values.input)).catch((error: unknown) => {
    throw new VerbatimError('not_found', `Can't read the input file ${values.input}: ${String(error)}`);
  });
  if (input.length % 2 !== 0)
    throw new VerbatimError('invalid_input', 'The input is not PCM16: it has an odd number of bytes.');

  let core: Core | undefined;
  try {
    core = createCore({
      dataDir: io.env.VERBATIM_DATA_DIR ?? join(homedir(), '.verbatim'),
      clock: speed === 1 ? systemClock : acceleratedClock(speed),
      apiKey: () => apiKey,
      transcriptionUrl: () => io.env.VERBATIM_TRANSCRIPTION_URL,
    });
    const library = core.library;
    const scheduler = core.scheduler;
    const tools = assistantTools({
      listFolder: (folder) => readdir(folder),
      submit: (path) => scheduler.submit({ source: { kind: 'file', path }, options: {}, region: 'us' }),
    });
    let inputOver = false;
    let replied = false;
    let failure: string | undefined;
    let lastActivity = Date.now();
    const print = (event: VoiceEvent): void => {
      if (event.type === 'level') return;
      lastActivity = Date.now();
      if (event.type === 'reply-done' || event.type === 'agent-transcript') replied = true;
      if (event.type === 'error') failure = event.message;
      io.out(values.json ? JSON.stringify(event) : describeEvent(event));
    };
    // Ends the speaker's turn as a microphone going quiet would, so turn detection hears it.
    const endTurn = (): void => {
      inputOver = true;
      session.capture(Buffer.alloc(bytesForMs(END_OF_TURN_SILENCE_MS)));
      session.flushCapture();
    };
    const session = new VoiceSession({
      socketUrl: voiceAddress(io.env.VERBATIM_VOICE_URL).socketUrl,
      auth: { kind: 'key', apiKey },
      // Headless: no greeting to talk over, and no loudspeaker the agent could hear itself in.
      config: assistantConfig({ ...defaultAssistantPreferences, greeting: '' }, tools),
      socketFactory: wsSocketFactory,
      source: new BufferSource(input, { speed, onEnd: () => endTurn() }),
      sink: new FileSink(resolve(values.output)),
      runTool: assistantToolRunner(library, tools),
      onEvent: print,
      headphones: true,
    });
    await session.start();
    const settledBy = Date.now() + SETTLE_LIMIT_MS;
    const quietMs = Math.max(200, QUIET_MS / speed);
    const replyLimitMs = Math.max(1000, REPLY_LIMIT_MS / speed);
    let inputOverAt: number | undefined;
    for (;;) {
      if (inputOver) inputOverAt ??= Date.now();
      const done = replied && session.state === 'listening' && Date.now() - lastActivity >= quietMs;
      if (done || session.state === 'closed' || Date.now() > settledBy) break;
      if (!replied && inputOverAt !== undefined && Date.now() - inputOverAt > replyLimitMs) break;
      await new Promise((wait) => setTimeout(wait, 20));
    }
    await session.stop();
    if (replied) return 0;
    io.err(
      `verbatim: ${
        failure
          ? `the voice agent stopped: ${inCommandLineTerms(failure)}`
          : `the voice agent did not answer within ${Math.round(REPLY_LIMIT_MS / 1000)} s of the end of the input`
      }. Nothing was written to ${values.output}.\n`,
    );
    return 1;
  } finally {
    await core?.close();
  }
}

function describeEvent(event: Exclude<VoiceEvent, { type: 'level' }>): string {
  switch (event.type) {
    case 'state':
      return `[${event.state}]`;
    case 'session':
      return `session ${event.sessionId}${event.resumed ? ' (resumed)' : ''}`;
    case 'user-transcript':
      return event.final ? `you: ${event.text}` : `you…: ${event.text}`;
    case 'reply-started':
      return 'agent is replying';
    case 'agent-transcript':
      return `agent: ${event.text}${event.interrupted ? ' (interrupted)' : ''}`;
    case 'reply-done':
      return event.interrupted ? 'reply interrupted' : 'reply done';
    case 'tool-call':
      return `tool call: ${event.name} ${JSON.stringify(event.arguments)}`;
    case 'tool-result':
      return `tool result: ${event.name} ${event.sent ? 'sent' : 'dropped'} ${event.result}`;
    case 'error':
      return `error (${event.code}): ${inCommandLineTerms(event.message)}`;
  }
}
