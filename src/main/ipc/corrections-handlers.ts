import type { Handlers } from '../../shared/ipc/contract';
import type { Services } from '../services';

type CorrectionsHandlers = Pick<Handlers, Extract<keyof Handlers, `corrections.${string}`>>;

/** The correction workspace: edits, undo and redo, history, the machine words and review stamps. */
export function createCorrectionsHandlers(services: Services): CorrectionsHandlers {
  const { library } = services.core;
  /** Every window's library list shows the corrections and the review progress. */
  const announce = async <T>(id: string, result: T): Promise<T> => {
    services.jobUpdated.emit(await library.requireJob(id));
    return result;
  };
  return {
    'corrections.edit': async ({ id, intent, expectedRevision, continues }) =>
      announce(id, await library.edit(id, intent, { expectedRevision, continues })),
    'corrections.undo': async ({ id }) => announce(id, await library.undo(id)),
    'corrections.redo': async ({ id }) => announce(id, await library.redo(id)),
    'corrections.history': ({ id }) => library.history(id),
    'corrections.machine': ({ id }) => library.machineSentences(id),
    'corrections.check': async ({ id, paragraph, checked }) =>
      announce(id, await library.setParagraphChecked(id, paragraph, checked)),
  };
}
