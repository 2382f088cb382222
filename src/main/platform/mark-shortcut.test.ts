import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { RecorderStatus } from '../../shared/recording';
import type { RecorderEvent } from '../core/recording/recorder';
import { Signal } from '../base/signal';
import type { ElectronMock } from './electron-mock.test-kit';

vi.mock('electron', async () => (await import('./electron-mock.test-kit')).electronMock());

const electron = (await import('electron')) as unknown as ElectronMock;
const { MARK_SHORTCUT, MarkShortcut } = await import('./mark-shortcut');

const status = (state: RecorderStatus['state']): RecorderEvent => ({
  type: 'status',
  status: {
    state,
    recording: null,
    deviceName: null,
    elapsedMs: 0,
    marks: [],
    warnings: [],
    ended: null,
    microphoneHeldBy: state === 'idle' ? null : 'recorder',
  },
});

describe('the global mark shortcut', () => {
  beforeEach(() => vi.clearAllMocks());

  it('is held while a recording runs, marks when pressed, and is given back when it stops', () => {
    const events = new Signal<RecorderEvent>();
    const mark = vi.fn();
    const shortcut = new MarkShortcut({ events, mark });
    expect(electron.globalShortcut.register).not.toHaveBeenCalled();
    events.emit(status('recording'));
    events.emit(status('paused'));
    expect(electron.globalShortcut.register).toHaveBeenCalledTimes(1);
    const [chord, press] = electron.globalShortcut.register.mock.calls[0] as unknown as [string, () => void];
    expect(chord).toBe(MARK_SHORTCUT);
    press();
    expect(mark).toHaveBeenCalledTimes(1);
    events.emit({ type: 'level', rms: 0.1, peak: 0.2 });
    events.emit(status('idle'));
    expect(electron.globalShortcut.unregister).toHaveBeenCalledWith(MARK_SHORTCUT);
    shortcut.dispose();
    expect(electron.globalShortcut.unregister).toHaveBeenCalledTimes(1);
  });

  it('says so when another app holds the chord', () => {
    electron.globalShortcut.register.mockReturnValueOnce(false);
    const refused = vi.fn();
    const events = new Signal<RecorderEvent>();
    const shortcut = new MarkShortcut({ events, mark: vi.fn() }, refused);
    events.emit(status('recording'));
    expect(refused).toHaveBeenCalledWith(`${MARK_SHORTCUT} is taken by another app; mark with M in Verbatim`);
    shortcut.dispose();
    expect(electron.globalShortcut.unregister).not.toHaveBeenCalled();
  });
});
