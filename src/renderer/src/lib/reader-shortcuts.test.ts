import { describe, expect, it } from 'vitest';
import { commandIds, resolveKeymap, type KeymapSettings } from '../../../shared/keymap';
import { groupedRows, readerShortcutRows } from './reader-shortcuts';

const linuxDefaults = resolveKeymap({ playPauseKey: 'Escape' }, 'linux');

describe('the shortcut help', () => {
  it('shows the configured play/pause key beside Ctrl+Space, with the rewind', () => {
    const row = readerShortcutRows({
      platform: 'linux',
      keymap: linuxDefaults,
      rewindOnResumeSeconds: 2,
    }).find((candidate) => candidate.keys.includes('Ctrl+Space'));
    expect(row).toEqual({
      group: 'Transcribing (also while typing in the text)',
      keys: ['Esc', 'Ctrl+Space'],
      action: 'Play or pause; playing again goes back 2 s',
      command: 'transcribe.toggle-play',
    });
    const mac = readerShortcutRows({
      platform: 'mac',
      keymap: resolveKeymap({ playPauseKey: 'Ctrl+Alt+P' }, 'mac'),
      rewindOnResumeSeconds: 0,
    });
    expect(mac.find((candidate) => candidate.keys.includes('⌘Space'))).toMatchObject({
      keys: ['⌃⌥P', '⌘Space'],
      action: 'Play or pause, the caret staying in the text',
    });
  });

  it('lists every key the reader answers to', () => {
    const keys = readerShortcutRows({
      platform: 'linux',
      keymap: linuxDefaults,
      rewindOnResumeSeconds: 2,
    }).flatMap((row) => row.keys);
    for (const key of ['Space', '←', '→', '[', ']', 'Ctrl+[', 'Ctrl+]', 'Ctrl+Shift+[', 'Ctrl+Shift+]']) {
      expect(keys).toContain(key);
    }
    for (const key of ['Ctrl+Enter', 'Ctrl+F', 'Enter', 'Shift+Enter', '?', 'Esc'])
      expect(keys).toContain(key);
  });

  it('is built from the keymap: one row per command, with the chords as rebound', () => {
    const settings: KeymapSettings = { playPauseKey: 'F4', keyBindings: { 'help.show': ['Ctrl+Shift+7'] } };
    const rows = readerShortcutRows({
      platform: 'linux',
      keymap: resolveKeymap(settings, 'linux'),
      rewindOnResumeSeconds: 2,
    });
    expect(rows.flatMap((row) => (row.command ? [row.command] : []))).toEqual(commandIds);
    expect(rows.find((row) => row.command === 'help.show')?.keys).toEqual(['Ctrl+Shift+7']);
    expect(rows.find((row) => row.command === 'transcribe.toggle-play')?.keys).toEqual(['F4', 'Ctrl+Space']);
    expect(rows.flatMap((row) => row.keys)).not.toContain('?');
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
