import type { ChatMessage, EffectiveRequest, ToolCall } from './request-schema';

/** The conversation a model "reads": messages with plain-text content, the transcript already in place. */

export interface ConversationMessage {
  role: ChatMessage['role'];
  content: string;
  toolCallId?: string;
  toolCalls?: ToolCall[];
}

/** The gateway's tag for the stored transcript: `{{ transcript }}`, spaces inside the braces optional. */
const TRANSCRIPT_TAG = /\{\{\s*transcript\s*\}\}/;

/** `prompt` becomes a single user message; content parts are joined into one text. */
export function toConversation(
  request: Pick<EffectiveRequest, 'prompt' | 'messages'>,
): ConversationMessage[] {
  if (request.prompt !== undefined) return [{ role: 'user', content: request.prompt }];
  return (request.messages ?? []).map((message) => ({
    role: message.role,
    content:
      typeof message.content === 'string'
        ? message.content
        : (message.content ?? []).map((part) => part.text).join('\n'),
    ...(message.tool_call_id ? { toolCallId: message.tool_call_id } : {}),
    ...(message.tool_calls ? { toolCalls: message.tool_calls } : {}),
  }));
}

/**
 * Replaces the first `{{ transcript }}` tag, in conversation order, with the transcript text.
 * Returns whether a tag was found; a conversation without one is left as it is.
 */
export function substituteTranscript(
  conversation: ConversationMessage[],
  transcript: string,
): { conversation: ConversationMessage[]; substituted: boolean } {
  const index = conversation.findIndex((message) => TRANSCRIPT_TAG.test(message.content));
  const target = conversation[index];
  if (!target) return { conversation, substituted: false };
  const updated = [...conversation];
  // A replacer function, so `$&` or `$1` in the transcript are inserted literally.
  updated[index] = { ...target, content: target.content.replace(TRANSCRIPT_TAG, () => transcript) };
  return { conversation: updated, substituted: true };
}
