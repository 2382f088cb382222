import type { Handlers } from '../../shared/ipc/contract';
import type { Services } from '../core/app-services';
import {
  decideProposal,
  listGlossaryProposals,
  shareLibraryGlossary,
} from '../core/collaboration/glossary-sharing';

type NewsroomGlossaryHandlers = Pick<
  Handlers,
  | 'glossaries.share'
  | 'glossaries.pull'
  | 'glossaries.propose'
  | 'glossaries.proposals'
  | 'glossaries.decideProposal'
>;

/**
 * Newsroom glossaries from a window (issue #36): sharing and deciding proposals on the newsroom of
 * Settings (its kept connection), proposals stored first and sent by the sync, a pull on demand.
 */
export function createNewsroomGlossaryHandlers(
  services: Pick<Services, 'core' | 'newsroomReader' | 'glossarySync'>,
): NewsroomGlossaryHandlers {
  const { glossaries } = services.core;
  return {
    'glossaries.share': async ({ glossaryId, desk }) => {
      await services.newsroomReader.use((newsroom) =>
        shareLibraryGlossary(glossaries, newsroom, glossaryId, desk),
      );
      return (await glossaries.list()).find((glossary) => glossary.id === glossaryId)!;
    },
    'glossaries.pull': () => services.glossarySync.sync(),
    'glossaries.propose': async ({ glossaryId, entry }) => {
      const outcome = await glossaries.propose(glossaryId, entry);
      services.glossarySync.wake();
      return { proposed: outcome.proposed };
    },
    'glossaries.proposals': () =>
      services.newsroomReader.use((newsroom) => listGlossaryProposals(glossaries, newsroom)),
    'glossaries.decideProposal': async ({ id, decision }) => {
      const decided = await services.newsroomReader.use((newsroom) =>
        decideProposal(glossaries, newsroom, id, decision),
      );
      // The accepted entry comes into this library's copy soon, as a colleague's change would.
      services.glossarySync.wake();
      return decided;
    },
  };
}
