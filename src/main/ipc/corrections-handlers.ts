import type { Handlers } from '../../shared/ipc/contract';
import type { Services } from '../core/app-services';

type CorrectionsHandlers = Pick<Handlers, Extract<keyof Handlers, `corrections.${string}`>>;

/** The correction workspace: edits, undo and redo, history, the machine words and review stamps. */
export function createCorrectionsHandlers(
  services: Pick<Services, 'core' | 'jobUpdated' | 'logger' | 'unsavedEdits'>,
): CorrectionsHandlers {
  const { library } = services.core;
  const log = services.logger.child('corrections');
  /**
   * Every window's library list shows the corrections and the review progress, so each change
   * is announced as `job.updated`, but only after the answer: announced first, the page handled
   * the broadcast before the edit's own answer, ~8 ms on the edit's critical path. setImmediate
   * runs once the transports have sent the answer (they do so in the promise callbacks that
   * follow this handler). The edit is stored by then, so a failed announcement is logged and
   * leaves only a list row stale.
   */
  const announceLater = (id: string): void => {
    setImmediate(() => {
      void (async () => {
        try {
          services.jobUpdated.emit(await library.requireJob(id));
        } catch (error) {
          log.warn(`The corrected transcript ${id} could not be announced to the windows.`, error);
        }
      })();
    });
  };
  const announce = <T>(id: string, result: T): T => {
    announceLater(id);
    return result;
  };
  return {
    'corrections.edit': async ({ id, intent, expectedRevision, continues }) =>
      announce(id, await library.edit(id, intent, { expectedRevision, continues })),
    'corrections.flushed': ({ request }) => {
      services.unsavedEdits.flushed(request);
      return Promise.resolve({});
    },
    'corrections.undo': async ({ id }) => announce(id, await library.undo(id)),
    'corrections.redo': async ({ id }) => announce(id, await library.redo(id)),
    'corrections.history': ({ id }) => library.history(id),
    'corrections.machine': ({ id }) => library.machineSentences(id),
    'corrections.check': async ({ id, paragraph, checked }) =>
      announce(id, await library.setParagraphChecked(id, paragraph, checked)),
  };
}
