import { describe, expect, it, vi } from 'vitest';
import type {
  TranscriptionPlayback as Playback,
  TranscriptionSettings as Settings,
} from './transcription-keys.svelte';

// The settings store reaches main through the bridge; these tests give the settings directly.
vi.mock('../lib/api', () => ({ api: {} }));

const { TranscriptionKeys, placeOf } = await import('./transcription-keys.svelte');

/** A player at a moment, paused or playing, recording what it was asked. */
function fakePlayer(atMs: number, paused: boolean): Playback & { calls: string[] } {
  const calls: string[] = [];
  let now = atMs;
  let isPaused = paused;
  return {
    calls,
    model: undefined,
    mediaFailed: false,
    notice: '',
    nowMs: () => now,
    seek: (ms) => {
      now = ms;
      calls.push(`seek ${ms}`);
    },
    isPaused: () => isPaused,
    pause: () => {
      isPaused = true;
      calls.push('pause');
    },
    togglePlay: () => {
      isPaused = !isPaused;
      calls.push(isPaused ? 'pause' : 'play');
      return Promise.resolve();
    },
    playFrom: (ms) => {
      calls.push(`play from ${ms}`);
      return Promise.resolve();
    },
    skip: (ms) => calls.push(`skip ${ms}`),
    stepRate: (direction) => calls.push(`rate ${direction}`),
  };
}

const defaults: Settings = { playPauseKey: 'Escape', rewindOnResumeSeconds: 2, autoPauseWhileTyping: true };

function keyEvent(key: string, extra: Record<string, unknown> = {}) {
  return {
    key,
    ctrlKey: false,
    metaKey: false,
    altKey: false,
    shiftKey: false,
    target: null,
    defaultPrevented: false,
    preventDefault: vi.fn(),
    ...extra,
  };
}

describe('the transcription keys of an open transcript', () => {
  it('pauses with the key, and resumes two seconds earlier', async () => {
    const player = fakePlayer(30_000, false);
    const keys = new TranscriptionKeys(player, () => defaults, 'linux');
    const event = keyEvent('Escape');
    expect(keys.handle(event)).toBe(true);
    expect(event.preventDefault).toHaveBeenCalled();
    expect(keys.handle(keyEvent('Escape'))).toBe(true);
    await Promise.resolve();
    expect(player.calls).toEqual(['pause', 'seek 28000', 'play']);
  });

  it('resumes at the start, never before it, and exactly where it stopped with a 0 s rewind', async () => {
    const early = fakePlayer(900, true);
    await new TranscriptionKeys(early, () => defaults, 'linux').togglePlay();
    expect(early.calls).toEqual(['seek 0', 'play']);
    const none = fakePlayer(12_345, true);
    await new TranscriptionKeys(
      none,
      () => ({ ...defaults, rewindOnResumeSeconds: 0 }),
      'linux',
    ).togglePlay();
    expect(none.calls).toEqual(['seek 12345', 'play']);
  });

  it('leaves other keys and keys already handled alone', () => {
    const player = fakePlayer(0, true);
    const keys = new TranscriptionKeys(player, () => defaults, 'linux');
    const letter = keyEvent('a');
    expect(keys.handle(letter)).toBe(false);
    expect(letter.preventDefault).not.toHaveBeenCalled();
    expect(keys.handle(keyEvent('Escape', { defaultPrevented: true }))).toBe(false);
    expect(player.calls).toEqual([]);
  });

  it('drives speed and skips from their chords', () => {
    const player = fakePlayer(0, true);
    const keys = new TranscriptionKeys(player, () => defaults, 'linux');
    keys.handle(keyEvent('[', { code: 'BracketLeft', ctrlKey: true }));
    keys.handle(keyEvent(']', { code: 'BracketRight', metaKey: true }));
    keys.handle(keyEvent('{', { code: 'BracketLeft', ctrlKey: true, shiftKey: true }));
    keys.handle(keyEvent('}', { code: 'BracketRight', ctrlKey: true, shiftKey: true }));
    expect(player.calls).toEqual(['rate -1', 'rate 1', 'skip -5000', 'skip 5000']);
  });

  it('pauses a playing recording when the journalist types, and says how to go on', async () => {
    const player = fakePlayer(60_000, false);
    const keys = new TranscriptionKeys(player, () => defaults, 'mac');
    keys.noteTyping();
    keys.noteTyping();
    expect(player.calls).toEqual(['pause']);
    expect(keys.pausedWhileTyping).toBe(true);
    expect(player.notice).toBe('Paused while you type. Esc plays on from 2 s earlier.');
    await keys.togglePlay();
    expect(player.calls).toEqual(['pause', 'seek 58000', 'play']);
    expect(keys.pausedWhileTyping).toBe(false);
  });

  it('keeps playing while typing when auto-pause is off', () => {
    const player = fakePlayer(60_000, false);
    new TranscriptionKeys(player, () => ({ ...defaults, autoPauseWhileTyping: false }), 'linux').noteTyping();
    expect(player.calls).toEqual([]);
  });

  it('says where to put the caret when there is no transcript text to play from', () => {
    const player = fakePlayer(0, true);
    expect(new TranscriptionKeys(player, () => defaults, 'linux').playFromCaret(null)).toBe(false);
    expect(player.notice).toMatch(/Put the caret in the transcript text/);
    expect(player.calls).toEqual([]);
  });

  it('knows nothing but an element is a place to type', () => {
    expect(placeOf(null)).toBe('elsewhere');
    expect(placeOf({} as EventTarget)).toBe('elsewhere');
  });
});
