import { describe, expect, it } from 'vitest';
import { DesktopAttention, type AttentionPort } from './desktop-attention';

function recorder() {
  const calls: {
    notify: Parameters<AttentionPort['notify']>[0][];
    progress: (number | null)[];
    badge: number[];
  } = {
    notify: [],
    progress: [],
    badge: [],
  };
  const port: AttentionPort = {
    notify: (note) => calls.notify.push(note),
    setProgress: (fraction) => calls.progress.push(fraction),
    setBadge: (count) => calls.badge.push(count),
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
});
