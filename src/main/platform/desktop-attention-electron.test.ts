import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ElectronMock } from './electron-mock.test-kit';

vi.mock('electron', async () => (await import('./electron-mock.test-kit')).electronMock());

const electron = (await import('electron')) as unknown as ElectronMock;
const { FakeBrowserWindow, FakeNotification } = await import('./electron-mock.test-kit');
const { appUserModelId, badgeDescription, electronAttentionPort } =
  await import('./desktop-attention-electron');
const { DesktopAttention } = await import('../core/app-policy/desktop-attention');

describe('the OS side of desktop attention', () => {
  beforeEach(() => {
    FakeNotification.shown.length = 0;
    FakeNotification.supported = true;
    vi.clearAllMocks();
  });

  it('shows a notification whose click opens the transcript, and the upload on the window’s icon', () => {
    const window = new FakeBrowserWindow({});
    const opened: string[] = [];
    const port = electronAttentionPort({
      mainWindow: () => window as never,
      openTranscript: (id) => opened.push(id),
      openNotice: () => undefined,
    });
    const attention = new DesktopAttention(port, () => false);
    attention.jobChanged({ id: 'j1', title: 'Mayor interview', status: 'uploading', error: null });
    attention.uploadProgress('j1', 25, 100);
    attention.jobChanged({ id: 'j1', title: 'Mayor interview', status: 'processing', error: null });
    attention.jobChanged({ id: 'j1', title: 'Mayor interview', status: 'completed', error: null });

    expect(window.setProgressBar.mock.calls.map((call) => call[0] as number)).toEqual([-1, 0.25, -1]);
    expect(electron.app.setBadgeCount.mock.calls.map((call) => call[0])).toEqual([1, 0]);
    expect(FakeNotification.shown.map((note) => note.options)).toEqual([
      { title: 'Transcript ready', body: '“Mayor interview” is ready to read.' },
    ]);
    FakeNotification.shown[0]!.click();
    expect(opened).toEqual(['j1']);
  });

  it('shows running jobs on Windows as an overlay on the taskbar button, described in words', () => {
    const window = new FakeBrowserWindow({});
    const port = electronAttentionPort({
      mainWindow: () => window as never,
      openTranscript: () => undefined,
      openNotice: () => undefined,
      platform: 'win32',
    });
    port.setBadge(2, { running: 2, unread: 0 });
    port.setBadge(1, { running: 1, unread: 0 });
    port.setBadge(0, { running: 0, unread: 0 });
    const overlays = window.setOverlayIcon.mock.calls as unknown as [unknown, string][];
    expect(overlays.map(([image, description]) => [image === null ? null : 'dot', description])).toEqual([
      ['dot', '2 transcriptions running'],
      ['dot', '1 transcription running'],
      [null, ''],
    ]);
    expect(electron.app.setBadgeCount).not.toHaveBeenCalled();
    const [dataUrl] = electron.nativeImage.createFromDataURL.mock.calls[0]!;
    expect(Buffer.from(dataUrl.split(',')[1]!, 'base64').subarray(1, 4).toString()).toBe('PNG');
  });

  it('stays quiet where the OS has no notifications, and with no window to show progress on', () => {
    FakeNotification.supported = false;
    const port = electronAttentionPort({
      mainWindow: () => undefined,
      openTranscript: () => undefined,
      openNotice: () => undefined,
    });
    port.notify({ title: 't', body: 'b', transcriptId: 'x' });
    port.setProgress(0.5);
    expect(FakeNotification.shown).toEqual([]);
  });

  it("shows a colleague's notice whose click opens it, and words the badge's parts", () => {
    const opened: number[] = [];
    const port = electronAttentionPort({
      mainWindow: () => undefined,
      openTranscript: () => undefined,
      openNotice: (notice) => opened.push(notice.id),
    });
    port.notifyNotice({
      title: 'cleo commented',
      body: 'cleo commented on quote 2 of “Harbour ferries”.',
      notice: {
        id: 7,
        kind: 'comment',
        by: 'cleo',
        text: 'cleo commented on quote 2 of “Harbour ferries”.',
        target: { kind: 'story', storyKey: 'ana/3', quote: 2 },
        key: 'comment:z',
        at: 1,
        receivedAt: 1,
        readAt: null,
      },
    });
    expect(FakeNotification.shown.map((note) => note.options)).toEqual([
      { title: 'cleo commented', body: 'cleo commented on quote 2 of “Harbour ferries”.' },
    ]);
    FakeNotification.shown[0]!.click();
    expect(opened).toEqual([7]);
    expect(badgeDescription({ running: 1, unread: 3 })).toBe('1 transcription running, 3 unread notices');
    expect(badgeDescription({ running: 0, unread: 1 })).toBe('1 unread notice');
  });

  it('names the app to Windows as its installer does, so notifications carry its name', async () => {
    const { readFileSync } = await import('node:fs');
    const yml = readFileSync(new URL('../../../electron-builder.yml', import.meta.url), 'utf8');
    expect(/^appId: (.+)$/m.exec(yml)?.[1]).toBe(appUserModelId);
  });
});
