import { describe, expect, it } from 'vitest';
import { settingsPatchSchema, settingsSchema } from '../../../shared/settings';
import { normalizeChord } from '../../../shared/keymap';
import { chordOf, type KeyLike } from './keymap';
import { recordedKey, resumeFromMs, transcriptionAction } from './transcription-keys';
import { chordRefusal, formatChord, platformOf } from './chord-text';

/** A key press as a browser reports it: no modifiers unless given. */
function press(key: string, extra: Partial<KeyLike> = {}): KeyLike {
  return { key, ctrlKey: false, metaKey: false, altKey: false, shiftKey: false, ...extra };
}

const escape = { playPauseKey: 'Escape' };

describe('which transcription action a key press is', () => {
  it('plays and pauses with the configured key, in the text and elsewhere in the reader', () => {
    expect(transcriptionAction(press('Escape'), escape, 'transcript-text')).toBe('toggle-play');
    expect(transcriptionAction(press('Escape'), escape, 'elsewhere')).toBe('toggle-play');
    expect(transcriptionAction(press('F4'), { playPauseKey: 'F4' }, 'transcript-text')).toBe('toggle-play');
    // Once another key is configured, Escape is an ordinary key again.
    expect(transcriptionAction(press('Escape'), { playPauseKey: 'F4' }, 'transcript-text')).toBeUndefined();
  });

  it('leaves a plain Escape to the reader’s other fields (it clears the find box)', () => {
    expect(transcriptionAction(press('Escape'), escape, 'other-field')).toBeUndefined();
    expect(transcriptionAction(press('F4'), { playPauseKey: 'F4' }, 'other-field')).toBe('toggle-play');
  });

  it('matches a configured chord with its modifiers exactly', () => {
    const settings = { playPauseKey: 'Ctrl+Alt+P' };
    expect(
      transcriptionAction(press('p', { ctrlKey: true, altKey: true }), settings, 'transcript-text'),
    ).toBe('toggle-play');
    expect(transcriptionAction(press('p', { ctrlKey: true }), settings, 'transcript-text')).toBeUndefined();
    expect(transcriptionAction(press('F4', { shiftKey: true }), { playPauseKey: 'F4' }, 'elsewhere')).toBe(
      undefined,
    );
  });

  it('plays and pauses with Ctrl+Space or Cmd+Space, whatever key is configured', () => {
    for (const held of [{ ctrlKey: true }, { metaKey: true }]) {
      expect(transcriptionAction(press(' ', held), { playPauseKey: 'F4' }, 'transcript-text')).toBe(
        'toggle-play',
      );
    }
    expect(transcriptionAction(press(' '), escape, 'transcript-text')).toBeUndefined();
    // Ctrl/Cmd+Shift+Space is the assistant's global shortcut, not ours.
    expect(
      transcriptionAction(press(' ', { ctrlKey: true, shiftKey: true }), escape, 'elsewhere'),
    ).toBeUndefined();
  });

  it('changes the speed with Ctrl/Cmd+[ and ], and skips with Shift added', () => {
    const at = (key: string, code: string, extra: Partial<KeyLike>): unknown =>
      transcriptionAction(press(key, { code, ...extra }), escape, 'transcript-text');
    expect(at('[', 'BracketLeft', { ctrlKey: true })).toBe('slower');
    expect(at(']', 'BracketRight', { metaKey: true })).toBe('faster');
    expect(at('{', 'BracketLeft', { ctrlKey: true, shiftKey: true })).toBe('back');
    expect(at('}', 'BracketRight', { ctrlKey: true, shiftKey: true })).toBe('forward');
    // By the key's place: on a German keyboard that key is Ü.
    expect(at('ü', 'BracketLeft', { ctrlKey: true })).toBe('slower');
    // Plain brackets are typed (the reader's own [ and ] handle them outside the text).
    expect(at('[', 'BracketLeft', {})).toBeUndefined();
    // AltGr reports Ctrl+Alt: typing "[" on a German keyboard must type it.
    expect(at('[', 'Digit8', { ctrlKey: true, altKey: true })).toBeUndefined();
  });

  it('plays from the caret with Ctrl/Cmd+Enter; a plain Enter is the editor’s', () => {
    expect(transcriptionAction(press('Enter', { ctrlKey: true }), escape, 'transcript-text')).toBe(
      'play-from-caret',
    );
    expect(transcriptionAction(press('Enter'), escape, 'transcript-text')).toBeUndefined();
  });

  it('ignores keys while an input method composes, and modifiers pressed alone', () => {
    expect(
      transcriptionAction(press('Escape', { isComposing: true }), escape, 'transcript-text'),
    ).toBeUndefined();
    expect(
      transcriptionAction(press('Control', { ctrlKey: true }), escape, 'transcript-text'),
    ).toBeUndefined();
  });
});

describe('chords', () => {
  it('are written with modifiers in one order and letters in capitals', () => {
    expect(chordOf(press('k', { shiftKey: true, ctrlKey: true }))).toBe('Ctrl+Shift+K');
    expect(chordOf(press(' ', { altKey: true }))).toBe('Alt+Space');
    expect(chordOf(press('+', { metaKey: true }))).toBe('Meta++');
    expect(chordOf(press('Shift', { shiftKey: true }))).toBeUndefined();
    expect(normalizeChord('Shift+Ctrl+k')).toBe('Ctrl+Shift+K');
    expect(normalizeChord('Meta++')).toBe('Meta++');
  });

  it('are shown as the machine writes them: symbols on a Mac, names elsewhere', () => {
    expect(formatChord('Escape', 'mac')).toBe('Esc');
    expect(formatChord('Mod+Space', 'mac')).toBe('⌘Space');
    expect(formatChord('Mod+Space', 'windows')).toBe('Ctrl+Space');
    expect(formatChord('Ctrl+Alt+Shift+Meta+K', 'mac')).toBe('⌃⌥⇧⌘K');
    expect(formatChord('Ctrl+Shift+K', 'linux')).toBe('Ctrl+Shift+K');
    expect(formatChord('Meta+F8', 'windows')).toBe('Win+F8');
    expect(formatChord('Mod+Enter', 'mac')).toBe('⌘↩');
    expect(formatChord('Mod+Enter', 'linux')).toBe('Ctrl+Enter');
  });

  it('know the platform from the user agent', () => {
    expect(platformOf('Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) Electron/38')).toBe('mac');
    expect(platformOf('Mozilla/5.0 (Windows NT 10.0; Win64; x64)')).toBe('windows');
    expect(platformOf('Mozilla/5.0 (X11; Linux x86_64)')).toBe('linux');
  });
});

describe('which keys may play and pause', () => {
  it('takes keys that type nothing, and chords with Ctrl or Cmd', () => {
    for (const chord of [
      'Escape',
      'F4',
      'Pause',
      'Insert',
      'Ctrl+Alt+P',
      'Meta+J',
      'Ctrl+Shift+Z',
      'Alt+F2',
    ]) {
      expect(chordRefusal(chord, 'linux'), chord).toBeUndefined();
    }
  });

  it('refuses letters, digits, punctuation and Space, also with Shift or Alt, saying why', () => {
    for (const chord of ['A', 'Shift+A', '7', '?', 'Space', 'Shift+Space', 'Alt+E']) {
      expect(chordRefusal(chord, 'linux'), chord).toMatch(/types a character/);
    }
    expect(chordRefusal('Alt+E', 'mac')).toMatch(/⌥E types a character on some keyboards/);
    expect(chordRefusal('A', 'mac')).toMatch(/hold ⌘ with it/);
  });

  it('refuses Enter, Tab, Backspace and the caret’s keys with any modifier', () => {
    for (const chord of [
      'Enter',
      'Ctrl+Enter',
      'Tab',
      'Shift+Tab',
      'Backspace',
      'Delete',
      'ArrowLeft',
      'Home',
    ]) {
      expect(chordRefusal(chord, 'windows'), chord).toMatch(/needed for typing and moving the caret/);
    }
  });

  it('refuses what the text and Verbatim already use', () => {
    for (const chord of ['Ctrl+C', 'Meta+V', 'Ctrl+Z', 'Ctrl+F', 'Ctrl+Space', 'Meta+[', 'Ctrl+1']) {
      expect(chordRefusal(chord, 'linux'), chord).toMatch(/already does something else/);
    }
  });

  it('waits for the rest of a chord while only a modifier is down', () => {
    expect(recordedKey(press('Control', { ctrlKey: true }), 'linux')).toEqual({ kind: 'waiting' });
    expect(recordedKey(press('F8'), 'linux')).toEqual({ kind: 'chosen', chord: 'F8' });
    expect(recordedKey(press('a'), 'linux')).toMatchObject({ kind: 'refused', chord: 'A' });
  });
});

describe('the rewind when playing again', () => {
  it('goes back the configured seconds, never before the start', () => {
    expect(resumeFromMs(10_000, 2)).toBe(8000);
    expect(resumeFromMs(10_000, 0)).toBe(10_000);
    expect(resumeFromMs(1500, 2)).toBe(0);
    expect(resumeFromMs(10_000, 0.5)).toBe(9500);
    expect(resumeFromMs(10_000, Number.NaN)).toBe(10_000);
  });
});

describe('the settings for transcribing with the keyboard', () => {
  it('load from a settings file written before they existed, with their defaults', () => {
    const older = settingsSchema.parse({ theme: 'dark', region: 'eu' });
    expect(older).toMatchObject({
      playPauseKey: 'Escape',
      rewindOnResumeSeconds: 2,
      autoPauseWhileTyping: true,
    });
  });

  it('keep the rewind between 0 and 10 seconds and a key to one chord', () => {
    expect(settingsPatchSchema.safeParse({ rewindOnResumeSeconds: 10 }).success).toBe(true);
    expect(settingsPatchSchema.safeParse({ rewindOnResumeSeconds: 11 }).success).toBe(false);
    expect(settingsPatchSchema.safeParse({ rewindOnResumeSeconds: -1 }).success).toBe(false);
    expect(settingsPatchSchema.safeParse({ playPauseKey: 'Ctrl+Alt+P' }).success).toBe(true);
    expect(settingsPatchSchema.safeParse({ playPauseKey: 'Meta++' }).success).toBe(true);
    expect(settingsPatchSchema.safeParse({ playPauseKey: 'two words' }).success).toBe(false);
    expect(settingsPatchSchema.safeParse({ playPauseKey: '' }).success).toBe(false);
  });
});
