import type { Handlers } from '../../shared/ipc/contract';
import type { NewsroomPublication } from '../../shared/ipc/newsroom-contract';
import { VerbatimError } from '../../shared/errors';
import type { Services } from '../core/app-services';
import { newsroomIdentity } from '../core/newsroom/newsroom-desks';

type PublishingHandlers = Pick<
  Handlers,
  'newsroom.publish' | 'newsroom.unpublish' | 'newsroom.desks' | 'newsroom.publications'
>;

/** The end of a sentence without its full stop, to go inside another. */
function clause(text: string): string {
  return text.trim().replace(/\.$/, '');
}

/**
 * Publishing from the app (issue #35, points 4 and 5): each publish is queued in the library
 * with its outbox item and sent when the newsroom answers, so it works offline; the desks are
 * asked of the newsroom in Settings, and the desk used last is offered when it cannot be asked.
 */
export function createPublishingHandlers(
  services: Pick<Services, 'core' | 'newsroom' | 'newsroomReader'>,
): PublishingHandlers {
  const { library } = services.core;
  return {
    'newsroom.publish': async ({ ids, desk, confidential, withAudio }) => {
      const publications: NewsroomPublication[] = [];
      const refused: { id: string; message: string }[] = [];
      for (const id of ids) {
        try {
          publications.push(await services.newsroom.publish(id, { desk, confidential, withAudio }));
        } catch (error) {
          if (!(error instanceof VerbatimError)) throw error;
          refused.push({ id, message: error.message });
        }
      }
      return { publications, refused };
    },
    'newsroom.unpublish': ({ id }) => services.newsroom.unpublish(id),
    'newsroom.publications': async ({ ids }) => [...(await library.newsroomPublications(ids)).values()],
    'newsroom.desks': async () => {
      const lastDesk = (await library.lastNewsroomDesk()) ?? null;
      try {
        // Asked on the connection search keeps for the newsroom of Settings.
        const { user, desks } = await services.newsroomReader.use((newsroom) =>
          newsroom.withClient((client) => newsroomIdentity(client)),
        );
        const message =
          desks.length === 0
            ? `${user} is on no desk of the newsroom yet: ask its administrator to add you to one, then publish.`
            : null;
        return { user, desks, message, lastDesk };
      } catch (error) {
        if (!(error instanceof VerbatimError)) throw error;
        const message =
          error.code === 'network' || error.code === 'timeout'
            ? `The newsroom cannot be reached now (${clause(error.message)}): publish to the desk you used before, and it is sent when the newsroom answers.`
            : error.message;
        return { user: null, desks: [], message, lastDesk };
      }
    },
  };
}
