import { describe, expect, it } from 'vitest';
import { DesktopAttention, type AttentionPort } from './desktop-attention';

function recorder() {
  const calls: {
    notify: Parameters<AttentionPort['notify']>[0][];
    notices: Parameters<AttentionPort['notifyNotice']>[0][];
    progress: (number | null)[];
    badge: number[];
    parts: Parameters<AttentionPort['setBadge']>[1][];
  } = {
    notify: [],
    notices: [],
    parts: [],
    progress: [],
    badge: [],
  };
  const port: AttentionPort = {
    notify: (note) => calls.notify.push(note),
    setProgress: (fraction) => calls.progress.push(fraction),
    notifyNotice: (note) => calls.notices.push(note),
    setBadge: (count, parts) => {
      calls.badge.push(count);
      calls.parts.push(parts);
    },
  };
  return { calls, port };
}

describe('DesktopAttention', () => {
  it('notifies a finished or failed transcription only while the window is not in front', () => {
    const { calls, port } = recorder();
    let focused = false;
    const attention = new DesktopAttention(port, () => focused);
    attention.jobChanged({ id: 'a', title: 'Mayor interview', status: 'processing', error: null });
    attention.jobChanged({ id: 'a', title: 'Mayor interview', status: 'completed', error: null });
    attention.jobChanged({ id: 'b', title: 'Press call', status: 'processing', error: null });
    attention.jobChanged({ id: 'b', title: 'Press call', status: 'error', error: 'The file has no audio.' });
    focused = true;
    attention.jobChanged({ id: 'c', title: 'Council', status: 'queued', error: null });
    attention.jobChanged({ id: 'c', title: 'Council', status: 'completed', error: null });
    expect(calls.notify).toEqual([
      { title: 'Transcript ready', body: '“Mayor interview” is ready to read.', transcriptId: 'a' },
      { title: 'Transcription failed', body: '“Press call”: The file has no audio.', transcriptId: 'b' },
    ]);
  });

  it('never announces what was already finished at start, a repeat, or a cancellation', () => {
    const { calls, port } = recorder();
    const attention = new DesktopAttention(port, () => false);
    attention.seed([{ id: 'old', title: 'Old', status: 'completed', error: null }]);
    attention.jobChanged({ id: 'old', title: 'Old (renamed)', status: 'completed', error: null });
    attention.jobChanged({ id: 'x', title: 'X', status: 'uploading', error: null });
    attention.jobChanged({ id: 'x', title: 'X', status: 'cancelled', error: null });
    expect(calls.notify).toEqual([]);
  });

  it('shows running jobs as the badge and the uploads’ combined progress on the icon', () => {
    const { calls, port } = recorder();
    const attention = new DesktopAttention(port, () => true);
    attention.seed([{ id: 'q', title: 'Q', status: 'queued', error: null }]);
    attention.jobChanged({ id: 'u1', title: 'U1', status: 'uploading', error: null });
    attention.jobChanged({ id: 'u2', title: 'U2', status: 'uploading', error: null });
    attention.uploadProgress('u1', 50, 100);
    attention.uploadProgress('u2', 0, 300);
    attention.uploadProgress('u2', 150, 300);
    attention.jobChanged({ id: 'u1', title: 'U1', status: 'submitting', error: null });
    attention.jobChanged({ id: 'u2', title: 'U2', status: 'submitting', error: null });
    attention.jobChanged({ id: 'q', title: 'Q', status: 'completed', error: null });
    attention.jobChanged({ id: 'u1', title: 'U1', status: 'completed', error: null });
    expect(calls.badge).toEqual([1, 2, 3, 2, 1]);
    // u1 done leaves u2 alone at 150 of 300: still half, so the icon is not asked again.
    expect(calls.progress).toEqual([null, 0.5, 0.12, 0.5, null]);
  });

  it('announces a notice only while the window is elsewhere, and counts the unread in the badge', () => {
    const { calls, port } = recorder();
    let focused = true;
    const attention = new DesktopAttention(port, () => focused);
    const notice = {
      id: 1,
      kind: 'change-request' as const,
      by: 'cleo',
      text: 'cleo asks for a change to quote 2 of “Harbour ferries”: check this against the tape.',
      target: { kind: 'story' as const, storyKey: 'ana/3', quote: 2 },
      key: 'comment:x',
      at: 1,
      receivedAt: 2,
      readAt: null,
    };
    attention.seed([{ id: 'q', title: 'Q', status: 'queued', error: null }]);
    attention.noticeArrived(notice);
    attention.unreadNotices(1);
    focused = false;
    attention.noticeArrived({ ...notice, id: 2, key: 'comment:y' });
    attention.unreadNotices(2);
    attention.jobChanged({ id: 'q', title: 'Q', status: 'completed', error: null });
    attention.unreadNotices(0);
    expect(calls.notices.map((note) => [note.title, note.notice.id])).toEqual([
      ['cleo asks for a change', 2],
    ]);
    expect(calls.notices[0]?.body).toBe(notice.text);
    expect(calls.badge).toEqual([1, 2, 3, 2, 0]);
    expect(calls.parts.at(-2)).toEqual({ running: 0, unread: 2 });
  });
});
