import { describe, expect, it } from 'vitest';
import type { StoredNotice } from '../../shared/collaboration-notice';
import { useAppTestbeds } from './ipc-testbed.test-kit';

const app = useAppTestbeds();

describe('the notices handlers', () => {
  it('list what the kinds of shared work raised, push each arrival to every page, and mark read', async () => {
    const bed = app();
    expect(await bed.call('notices.list')).toEqual({ notices: [], unread: 0 });
    const pushed = bed.nextEvent('notices.changed');
    await bed.services.core.notices.sink({
      kind: 'approval',
      by: 'cleo',
      text: 'cleo approved quote 2 of “Harbour ferries”.',
      target: { kind: 'story', storyKey: 'ana/3', quote: 2 },
      key: 'approval:ana/3:12',
      at: 5,
    });
    await pushed;
    expect(bed.events.find((event) => event.event === 'notices.changed')?.payload).toMatchObject({
      unread: 1,
      added: { by: 'cleo', kind: 'approval', readAt: null },
    });
    const listed = await bed.call<{ notices: StoredNotice[]; unread: number }>('notices.list', { limit: 10 });
    expect(listed.unread).toBe(1);
    expect(listed.notices.map((notice) => notice.text)).toEqual([
      'cleo approved quote 2 of “Harbour ferries”.',
    ]);
    expect(await bed.call('notices.markRead', { ids: [listed.notices[0]!.id] })).toEqual({ unread: 0 });
    expect(await bed.call('notices.markRead', {})).toEqual({ unread: 0 });
    // A click on its system notification asks every page to open it.
    const opening = bed.nextEvent('notices.open');
    bed.services.core.notices.openRequested.emit(listed.notices[0]!);
    await opening;
    expect(bed.events.at(-1)).toMatchObject({ event: 'notices.open', payload: { key: 'approval:ana/3:12' } });
  });

  it('refuses a bad request in words', async () => {
    const bed = app();
    expect((await bed.failure('notices.markRead', { ids: [0] })).code).toBe('invalid_input');
    expect((await bed.failure('notices.list', { limit: 501 })).code).toBe('invalid_input');
  });
});
