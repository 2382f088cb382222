import { z } from 'zod';
import { sessionPatchSchema } from './session-config';

/**
 * The voice agent's wire messages: JSON text frames selected by `type`.
 *
 * Codes of session.error. The spec leaves the complete list "not shown"; these are the
 * emulator's, and none of them closes the connection:
 * - invalid_json: the frame is not a JSON object (binary frames included)
 * - unknown_message_type: `type` is missing or is not one of the spec's client messages
 * - invalid_message: a known message with missing or wrongly typed fields
 * - invalid_session_config: a session.update whose `session` is malformed (unknown field,
 *   encoding other than audio/pcm at 24 kHz, vad_threshold outside 0..1, volume outside 0..100,
 *   duplicate tool names, output.voice changed after session.ready)
 * - session_not_ready: input.audio, tool.result or reply.create before session.ready
 * - session_already_started: session.resume on a connection that already has a session
 * - session_not_found: session.resume with an unknown id or after the 30 s grace window
 * - invalid_audio: input.audio that is not base64 of whole PCM16 samples
 * - unknown_call_id: tool.result for a call the agent is not waiting on
 */
export type SessionErrorCode =
  | 'invalid_json'
  | 'unknown_message_type'
  | 'invalid_message'
  | 'invalid_session_config'
  | 'session_not_ready'
  | 'session_already_started'
  | 'session_not_found'
  | 'invalid_audio'
  | 'unknown_call_id';

const clientMessageSchemas = {
  'session.update': z.strictObject({ type: z.literal('session.update'), session: sessionPatchSchema }),
  'session.resume': z.strictObject({ type: z.literal('session.resume'), session_id: z.string().min(1) }),
  'input.audio': z.strictObject({ type: z.literal('input.audio'), audio: z.string() }),
  'tool.result': z.strictObject({
    type: z.literal('tool.result'),
    call_id: z.string().min(1),
    result: z.string(),
  }),
  'reply.create': z.strictObject({ type: z.literal('reply.create'), instructions: z.string().optional() }),
};
type ClientMessageType = keyof typeof clientMessageSchemas;
export type ClientMessage = z.infer<(typeof clientMessageSchemas)[ClientMessageType]>;

export type ServerMessage =
  | { type: 'session.ready'; session_id: string }
  | { type: 'session.updated' }
  | { type: 'session.error'; code: SessionErrorCode; message: string }
  | { type: 'input.speech.started' }
  | { type: 'input.speech.stopped' }
  | { type: 'transcript.user.delta'; text: string }
  | { type: 'transcript.user'; text: string; item_id: string }
  | { type: 'reply.started'; reply_id: string }
  | { type: 'reply.audio'; data: string }
  | { type: 'transcript.agent'; text: string; reply_id: string; item_id: string; interrupted: boolean }
  | { type: 'reply.done'; status: 'completed' | 'interrupted' }
  | { type: 'tool.call'; call_id: string; name: string; arguments: Record<string, unknown> };

type ParsedMessage =
  { ok: true; message: ClientMessage } | { ok: false; code: SessionErrorCode; message: string };

function isClientMessageType(type: unknown): type is ClientMessageType {
  return typeof type === 'string' && Object.hasOwn(clientMessageSchemas, type);
}

function describeIssues(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.join('.') || '(message)'}: ${issue.message}`).join('; ');
}

export function parseClientMessage(text: string): ParsedMessage {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, code: 'invalid_json', message: 'The message is not valid JSON' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, code: 'invalid_json', message: 'The message must be a JSON object' };
  }
  const type = (value as { type?: unknown }).type;
  if (!isClientMessageType(type)) {
    return {
      ok: false,
      code: 'unknown_message_type',
      message: `Unknown message type ${JSON.stringify(type)}; expected one of ${Object.keys(clientMessageSchemas).join(', ')}`,
    };
  }
  const parsed = clientMessageSchemas[type].safeParse(value);
  if (parsed.success) return { ok: true, message: parsed.data };
  return {
    ok: false,
    code: type === 'session.update' ? 'invalid_session_config' : 'invalid_message',
    message: `Invalid ${type}: ${describeIssues(parsed.error)}`,
  };
}
