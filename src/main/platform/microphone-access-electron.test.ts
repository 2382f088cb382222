import { beforeEach, describe, expect, it, vi } from 'vitest';

type MediaStatus = 'not-determined' | 'granted' | 'denied' | 'restricted' | 'unknown';

/** The shared Electron stand-in, with the macOS permission store this file talks to. */
const preferences = {
  status: 'not-determined' as MediaStatus,
  answer: true,
  getMediaAccessStatus: vi.fn((_type: string): MediaStatus => preferences.status),
  askForMediaAccess: vi.fn((_type: string) => Promise.resolve(preferences.answer)),
};
vi.mock('electron', async () => ({
  ...(await import('./electron-mock.test-kit')).electronMock(),
  systemPreferences: preferences,
}));

const { electronMicrophoneAccess } = await import('./microphone-access-electron');

beforeEach(() => {
  vi.clearAllMocks();
  preferences.status = 'not-determined';
  preferences.answer = true;
});

describe('the microphone permission on macOS', () => {
  it('goes ahead without a prompt when the microphone is already allowed', async () => {
    preferences.status = 'granted';
    expect(await electronMicrophoneAccess('darwin')()).toBe('granted');
    expect(preferences.getMediaAccessStatus).toHaveBeenCalledWith('microphone');
    expect(preferences.askForMediaAccess).not.toHaveBeenCalled();
  });

  it.each(['denied', 'restricted'] as const)('refuses without asking again when it is %s', async (status) => {
    preferences.status = status;
    expect(await electronMicrophoneAccess('darwin')()).toBe('denied');
    expect(preferences.askForMediaAccess).not.toHaveBeenCalled();
  });

  it('asks when the journalist has not decided yet, and follows the answer', async () => {
    const access = electronMicrophoneAccess('darwin');
    expect(await access()).toBe('granted');
    expect(preferences.askForMediaAccess).toHaveBeenCalledWith('microphone');
    preferences.answer = false;
    expect(await access()).toBe('denied');
    expect(preferences.askForMediaAccess).toHaveBeenCalledTimes(2);
  });

  it('shows one prompt for two starts made while it is up', async () => {
    let answer: (granted: boolean) => void = () => undefined;
    preferences.askForMediaAccess.mockImplementationOnce(
      () => new Promise<boolean>((resolve) => (answer = resolve)),
    );
    const access = electronMicrophoneAccess('darwin');
    const first = access();
    const second = access();
    answer(true);
    expect(await Promise.all([first, second])).toEqual(['granted', 'granted']);
    expect(preferences.askForMediaAccess).toHaveBeenCalledTimes(1);
  });
});

describe('the microphone permission elsewhere', () => {
  it.each(['win32', 'linux'] as const)(
    'is granted on %s, where desktop apps get no prompt',
    async (platform) => {
      // Even a status that would refuse on macOS is not consulted.
      preferences.status = 'denied';
      expect(await electronMicrophoneAccess(platform)()).toBe('granted');
      expect(preferences.getMediaAccessStatus).not.toHaveBeenCalled();
      expect(preferences.askForMediaAccess).not.toHaveBeenCalled();
    },
  );
});
