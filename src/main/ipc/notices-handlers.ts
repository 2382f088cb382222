import type { Handlers } from '../../shared/ipc/contract';
import { combinedDisposable, type IDisposable } from '../base/lifecycle';
import type { Notices } from '../core/collaboration/notices';
import type { EmitEvent } from './emit-event';

type NoticesHandlers = Pick<Handlers, 'notices.list' | 'notices.markRead'>;

/** The notices of working together (issue #36, point 4), from the library. */
export function createNoticesHandlers(notices: Notices): NoticesHandlers {
  return {
    'notices.list': async ({ limit }) => ({
      notices: await notices.list(limit),
      unread: await notices.unreadCount(),
    }),
    'notices.markRead': async ({ ids }) => {
      await notices.markRead(ids);
      return { unread: await notices.unreadCount() };
    },
  };
}

/** Every window hears a notice arrive, the unread count change, and a notification's click. */
export function wireNoticesEvents(notices: Notices, emit: EmitEvent): IDisposable {
  return combinedDisposable(
    notices.changed.subscribe((change) =>
      emit(
        'notices.changed',
        change.added ? { unread: change.unread, added: change.added } : { unread: change.unread },
      ),
    ),
    notices.openRequested.subscribe((notice) => emit('notices.open', notice)),
  );
}
