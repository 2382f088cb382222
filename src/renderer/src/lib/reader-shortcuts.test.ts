import { describe, expect, it } from 'vitest';
import { groupedRows, readerShortcutRows, type ShortcutContext } from './reader-shortcuts';

const linux: ShortcutContext = {
  platform: 'linux',
  playPauseKey: 'Escape',
  rewindOnResumeSeconds: 2,
  autoPauseWhileTyping: true,
};

describe('the reader’s shortcut help', () => {
  it('shows the configured play/pause key beside Ctrl+Space, with the rewind', () => {
    const row = readerShortcutRows(linux).find((candidate) => candidate.keys.includes('Ctrl+Space'));
    expect(row).toEqual({
      group: 'Transcribing (also while typing in the text)',
      keys: ['Esc', 'Ctrl+Space'],
      action: 'Play or pause; playing again goes back 2 s',
    });
    const mac = readerShortcutRows({
      ...linux,
      platform: 'mac',
      playPauseKey: 'Ctrl+Alt+P',
      rewindOnResumeSeconds: 0,
    });
    expect(mac.find((candidate) => candidate.keys.includes('⌘Space'))).toMatchObject({
      keys: ['⌃⌥P', '⌘Space'],
      action: 'Play or pause, the caret staying in the text',
    });
  });

  it('lists every key the reader answers to', () => {
    const keys = readerShortcutRows(linux).flatMap((row) => row.keys);
    for (const key of ['Space', '←', '→', '[', ']', 'Ctrl+[', 'Ctrl+]', 'Ctrl+Shift+[', 'Ctrl+Shift+]']) {
      expect(keys).toContain(key);
    }
    for (const key of ['Ctrl+Enter', 'Ctrl+F', 'Enter', 'Shift+Enter', '?', 'Esc'])
      expect(keys).toContain(key);
  });

  it('keeps each group together in the order it first appears', () => {
    const groups = groupedRows([
      { group: 'A', keys: ['1'], action: 'one' },
      { group: 'B', keys: ['2'], action: 'two' },
      { group: 'A', keys: ['3'], action: 'three' },
    ]);
    expect(groups.map(({ group, rows }) => [group, rows.map((row) => row.action)])).toEqual([
      ['A', ['one', 'three']],
      ['B', ['two']],
    ]);
  });
});
