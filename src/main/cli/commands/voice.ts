import { readdir, readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { VerbatimError, withoutFullStop } from '../../../shared/errors';
import { createCore, type Core } from '../../core/app-core';
import { acceleratedClock, systemClock } from '../../base/clock';
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
import type { CliIo } from '../cli-io';
import { defineCommand } from '../command';
import { dataFolderOf, requireTranscriptionKey, timeScaleOf } from '../environment';
import { UsageError } from '../usage-error';
import { inCommandLineTerms } from '../command-line-wording';

/**
 * `voice --input FILE.raw --output FILE.raw [--json]`: one voice agent session without a sound
 * card. The input (PCM16 mono 24 kHz) is streamed as a microphone would, the agent's voice is
 * written to the output, and every event is printed (one JSON object per line with --json).
 * The session ends once the input is over and the conversation has been quiet for a moment.
 */

/** How long the conversation must stay quiet after the reply, in real time at speed 1. */
const QUIET_MS = 2000;
/** The silence sent when the input ends: the end of the file is the end of the speaker's turn. */
const END_OF_TURN_SILENCE_MS = 1500;
/** How long the agent may take to start answering once the turn ended, at speed 1. */
const REPLY_LIMIT_MS = 30_000;
/** The longest a headless session may run after its input ended. */
const SETTLE_LIMIT_MS = 120_000;

export const voiceCommand = defineCommand({
  name: 'voice',
  usage: ['--input FILE.raw --output FILE.raw [--json]   (PCM16 mono 24 kHz; VERBATIM_VOICE_URL)'],
  summary:
    'Talks with the voice agent once, from a recording and into a file, without a microphone or a speaker.',
  options: {
    input: {
      type: 'string',
      valueName: 'FILE.raw',
      description: 'what is said to the agent, as a microphone would',
    },
    output: { type: 'string', valueName: 'FILE.raw', description: "where the agent's voice is written" },
    json: { type: 'boolean', description: 'prints every event as a JSON object on a line of its own' },
  },
  takesWords: false,
  run: ({ values }, { io }) => runVoiceSession(values, io),
});

async function runVoiceSession(
  values: { input: string | undefined; output: string | undefined; json: boolean },
  io: CliIo,
): Promise<number> {
  if (!values.input || !values.output)
    throw new UsageError('voice needs --input FILE.raw and --output FILE.raw');
  const apiKey = requireTranscriptionKey(io.env);
  const speed = timeScaleOf(io.env);
  const input = await readPcmInput(values.input);
  let core: Core | undefined;
  try {
    core = createCore({
      dataDir: dataFolderOf(io.env),
      clock: speed === 1 ? systemClock : acceleratedClock(speed),
      apiKey: () => apiKey,
      transcriptionUrl: () => io.env.VERBATIM_TRANSCRIPTION_URL,
    });
    const conversation = await converse(
      core,
      { input, output: values.output, apiKey, speed },
      values.json,
      io,
    );
    if (conversation.replied) return 0;
    const why = conversation.failure
      ? `the voice agent stopped: ${withoutFullStop(inCommandLineTerms(conversation.failure))}`
      : `the voice agent did not answer within ${Math.round(REPLY_LIMIT_MS / 1000)} s of the end of the input`;
    io.err(`verbatim: ${why}. Nothing was written to ${values.output}.\n`);
    return 1;
  } finally {
    await core?.close();
  }
}

async function readPcmInput(path: string): Promise<Buffer> {
  const input = await readFile(resolve(path)).catch((error: unknown) => {
    throw new VerbatimError('not_found', `Can't read the input file ${path}: ${String(error)}`);
  });
  if (input.length % 2 !== 0)
    throw new VerbatimError('invalid_input', 'The input is not PCM16: it has an odd number of bytes.');
  return input;
}

/** What a headless session needs: the speech to send, where the reply goes, and how fast to go. */
interface SessionSetup {
  input: Buffer;
  output: string;
  apiKey: string;
  speed: number;
}

/** How the conversation has gone so far, as its events tell it. */
interface Conversation {
  inputOver: boolean;
  replied: boolean;
  failure: string | undefined;
  lastActivity: number;
}

/** Streams the input to the agent, printing every event, until the conversation has settled. */
async function converse(core: Core, setup: SessionSetup, json: boolean, io: CliIo): Promise<Conversation> {
  const scheduler = core.scheduler;
  const tools = assistantTools({
    listFolder: (folder) => readdir(folder),
    submit: (path) => scheduler.submit({ source: { kind: 'file', path }, options: {}, region: 'us' }),
  });
  const conversation: Conversation = {
    inputOver: false,
    replied: false,
    failure: undefined,
    lastActivity: Date.now(),
  };
  const print = (event: VoiceEvent): void => {
    if (event.type === 'level') return;
    conversation.lastActivity = Date.now();
    if (event.type === 'reply-done' || event.type === 'agent-transcript') conversation.replied = true;
    if (event.type === 'error') conversation.failure = event.message;
    io.out(json ? JSON.stringify(event) : describeEvent(event));
  };
  // Ends the speaker's turn as a microphone going quiet would, so turn detection hears it.
  const endTurn = (): void => {
    conversation.inputOver = true;
    session.capture(Buffer.alloc(bytesForMs(END_OF_TURN_SILENCE_MS)));
    session.flushCapture();
  };
  const session = new VoiceSession({
    socketUrl: voiceAddress(io.env.VERBATIM_VOICE_URL).socketUrl,
    auth: { kind: 'key', apiKey: setup.apiKey },
    // Headless: no greeting to talk over, and no loudspeaker the agent could hear itself in.
    config: assistantConfig({ ...defaultAssistantPreferences, greeting: '' }, tools),
    socketFactory: wsSocketFactory,
    source: new BufferSource(setup.input, { speed: setup.speed, onEnd: () => endTurn() }),
    sink: new FileSink(resolve(setup.output)),
    runTool: assistantToolRunner(core.library, tools),
    onEvent: print,
    headphones: true,
  });
  await session.start();
  await untilSettled(session, conversation, setup.speed);
  await session.stop();
  return conversation;
}

/**
 * Until the agent has replied and gone quiet, or the session closed, or the agent never began
 * to answer after the input ended, or the session has run out of time.
 */
async function untilSettled(session: VoiceSession, conversation: Conversation, speed: number): Promise<void> {
  const settledBy = Date.now() + SETTLE_LIMIT_MS;
  const quietMs = Math.max(200, QUIET_MS / speed);
  const replyLimitMs = Math.max(1000, REPLY_LIMIT_MS / speed);
  let inputOverAt: number | undefined;
  for (;;) {
    if (conversation.inputOver) inputOverAt ??= Date.now();
    const quiet = Date.now() - conversation.lastActivity >= quietMs;
    const done = conversation.replied && session.state === 'listening' && quiet;
    if (done || session.state === 'closed' || Date.now() > settledBy) return;
    if (!conversation.replied && inputOverAt !== undefined && Date.now() - inputOverAt > replyLimitMs) return;
    await new Promise((wait) => setTimeout(wait, 20));
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
