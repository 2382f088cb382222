import { z } from 'zod';
import type { ToolDefinition } from '../library-tools/library-tools';

/**
 * The voice agent's wire messages (spec: "Voice agent WebSocket" and "Voice agent server
 * messages"): JSON text frames selected by `type`. Server messages are checked at the door and
 * extra fields are tolerated; a type we do not know is ignored rather than fatal, so a newer
 * service does not break an older app.
 */

/** The agent's audio, both ways: 16-bit little-endian PCM, mono, 24 kHz (AssemblyAI's `audio/pcm`). */
export const VOICE_SAMPLE_RATE = 24_000;
export const PCM_ENCODING = 'audio/pcm';

export interface SessionConfig {
  systemPrompt: string;
  greeting: string;
  /** 0..1: how loud a frame must be to count as speech. */
  vadThreshold: number;
  voice: string;
  /** 0..100, AssemblyAI's scale. */
  volume: number;
  tools: ToolDefinition[];
}

export type ClientMessage =
  | { type: 'session.update'; session: Record<string, unknown> }
  | { type: 'session.resume'; session_id: string }
  | { type: 'input.audio'; audio: string }
  | { type: 'tool.result'; call_id: string; result: string }
  | { type: 'reply.create'; instructions?: string };

/**
 * The session.update that configures a session (every field of the spec's table). `withVoice`
 * false leaves the voice out: it cannot change once the session is ready.
 */
export function sessionUpdate(config: SessionConfig, withVoice = true): ClientMessage {
  return {
    type: 'session.update',
    session: {
      system_prompt: config.systemPrompt,
      greeting: config.greeting,
      input: { format: { encoding: PCM_ENCODING }, turn_detection: { vad_threshold: config.vadThreshold } },
      output: {
        ...(withVoice ? { voice: config.voice } : {}),
        format: { encoding: PCM_ENCODING },
        volume: config.volume,
      },
      tools: config.tools.map((tool) => ({
        type: 'function',
        name: tool.name,
        description: tool.description,
        parameters: tool.parameters,
      })),
    },
  };
}

const toolArguments = z.union([z.record(z.string(), z.unknown()), z.string()]);

const serverMessageSchema = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('session.ready'), session_id: z.string().min(1) }),
  z.looseObject({ type: z.literal('session.updated') }),
  z.looseObject({
    type: z.literal('session.error'),
    code: z.string().default('unknown'),
    message: z.string().default('The voice agent reported an error.'),
  }),
  z.looseObject({ type: z.literal('input.speech.started') }),
  z.looseObject({ type: z.literal('input.speech.stopped') }),
  z.looseObject({ type: z.literal('transcript.user.delta'), text: z.string() }),
  z.looseObject({ type: z.literal('transcript.user'), text: z.string(), item_id: z.string().optional() }),
  z.looseObject({ type: z.literal('reply.started'), reply_id: z.string().optional() }),
  z.looseObject({ type: z.literal('reply.audio'), data: z.string() }),
  z.looseObject({
    type: z.literal('transcript.agent'),
    text: z.string(),
    reply_id: z.string().optional(),
    item_id: z.string().optional(),
    interrupted: z.boolean().default(false),
  }),
  z.looseObject({ type: z.literal('reply.done'), status: z.string().optional() }),
  // The spec names the field `arguments`; some agents send `args`: either is taken.
  z
    .looseObject({
      type: z.literal('tool.call'),
      call_id: z.string().min(1),
      name: z.string().min(1),
      arguments: toolArguments.optional(),
      args: toolArguments.optional(),
    })
    .transform(({ args, arguments: named, ...rest }) => ({ ...rest, arguments: named ?? args ?? {} })),
]);
export type ServerMessage = z.output<typeof serverMessageSchema>;

const knownTypes = new Set<string>([
  'session.ready',
  'session.updated',
  'session.error',
  'input.speech.started',
  'input.speech.stopped',
  'transcript.user.delta',
  'transcript.user',
  'reply.started',
  'reply.audio',
  'transcript.agent',
  'reply.done',
  'tool.call',
]);

/** A server frame: the message, `ignored` for a type this client does not know, or why it is bad. */
export function parseServerMessage(
  text: string,
): { message: ServerMessage } | { ignored: string } | { invalid: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { invalid: 'The voice agent sent a message that is not JSON.' };
  }
  const type = (value as { type?: unknown } | null)?.type;
  if (typeof type !== 'string') return { invalid: 'The voice agent sent a message without a type.' };
  if (!knownTypes.has(type)) return { ignored: type };
  const parsed = serverMessageSchema.safeParse(value);
  if (!parsed.success) return { invalid: `The voice agent sent a malformed ${type} message.` };
  return { message: parsed.data };
}
