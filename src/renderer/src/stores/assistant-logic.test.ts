import { describe, expect, it } from 'vitest';
import { applyToolEvent, stateLabel, toolLabel, type ConversationEntry } from './assistant-logic';

describe('the assistant conversation', () => {
  it('adds a tool call when it starts and updates the same entry with its result', () => {
    const start: ConversationEntry[] = [{ kind: 'user', text: 'find the ferry quote', interrupted: false }];
    const running = applyToolEvent(start, {
      callId: 'c1',
      name: 'search_library',
      arguments: { query: 'ferry' },
      status: 'running',
    });
    expect(running).toHaveLength(2);
    const done = applyToolEvent(running, {
      callId: 'c1',
      name: 'search_library',
      arguments: undefined,
      status: 'sent',
      result: '{}',
    });
    expect(done).toHaveLength(2);
    expect(done[1]).toEqual({
      kind: 'tool',
      callId: 'c1',
      name: 'search_library',
      arguments: { query: 'ferry' },
      status: 'sent',
      result: '{}',
    });
  });

  it('names the states and says when the microphone is muted', () => {
    expect(stateLabel('user-speaking', false)).toBe('Hearing you');
    expect(stateLabel('listening', true)).toBe('Listening · microphone muted');
    expect(stateLabel('closed', true)).toBe('Off');
    expect(toolLabel('list_recent_transcripts')).toBe('list recent transcripts');
  });
});
