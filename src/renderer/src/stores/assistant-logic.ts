import type { VoiceStateName } from '../../../shared/voice';

/** The assistant view's pure parts: what a conversation shows and what each state is called. */

export type ConversationEntry =
  | { kind: 'user' | 'agent'; text: string; interrupted: boolean }
  | {
      kind: 'tool';
      callId: string;
      name: string;
      arguments: unknown;
      status: 'running' | 'sent' | 'dropped';
      result?: string | undefined;
    };

export interface ToolEvent {
  callId: string;
  name: string;
  arguments: unknown;
  status: 'running' | 'sent' | 'dropped';
  result?: string | undefined;
}

/** A new call joins the conversation; its result updates the same entry. */
export function applyToolEvent(entries: ConversationEntry[], event: ToolEvent): ConversationEntry[] {
  const index = entries.findIndex((entry) => entry.kind === 'tool' && entry.callId === event.callId);
  if (index < 0) return [...entries, { kind: 'tool', ...event }];
  return entries.map((entry, i) =>
    i === index && entry.kind === 'tool' ? { ...entry, status: event.status, result: event.result } : entry,
  );
}

const labels: Record<VoiceStateName, string> = {
  connecting: 'Connecting…',
  configuring: 'Connecting…',
  ready: 'Ready',
  listening: 'Listening',
  'user-speaking': 'Hearing you',
  thinking: 'Thinking…',
  'agent-speaking': 'Speaking',
  reconnecting: 'Reconnecting…',
  closed: 'Off',
};

export function stateLabel(state: VoiceStateName, muted: boolean): string {
  if (muted && state !== 'closed') return `${labels[state]} · microphone muted`;
  return labels[state];
}

/** "search_library" → "search library"; what a journalist reads in the conversation. */
export function toolLabel(name: string): string {
  return name.replace(/[_-]+/g, ' ');
}
