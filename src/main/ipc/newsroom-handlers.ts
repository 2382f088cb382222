import type { Handlers } from '../../shared/ipc/contract';
import type { NewsroomSettings } from '../../shared/ipc/newsroom-contract';
import { VerbatimError } from '../../shared/errors';
import type { Services } from '../core/app-services';
import { newsroomAddressText, settingsNaming } from '../core/newsroom/newsroom-address';
import {
  checkNewsroom,
  newsroomIdentitySentence,
  newsroomPasswordMissing,
} from '../core/newsroom/newsroom-check';
import type { NewsroomBounds } from '../core/newsroom/newsroom-connection';
import { settingsAddressIn as addressIn } from '../core/newsroom/newsroom-reader';
import { openNewsroomTranscript, searchNewsroom } from '../core/newsroom/newsroom-search';
import { keepNewsroomTranscript, keptNewsroomAudioDir } from '../core/newsroom/newsroom-keep';

type NewsroomHandlers = Pick<
  Handlers,
  | 'newsroom.settings'
  | 'newsroom.setSettings'
  | 'newsroom.check'
  | 'newsroom.search'
  | 'newsroom.open'
  | 'newsroom.keep'
  | 'newsroom.watch'
>;

/**
 * The newsroom in Settings (issue #35): its address is a setting, its password is in the key
 * store (encrypted with the OS's, as the service key is) and never leaves main.
 */
export function createNewsroomHandlers(
  services: Pick<
    Services,
    'settings' | 'secrets' | 'newsroomReader' | 'core' | 'dataFolder' | 'jobUpdated' | 'newsroomKeepProgress'
  >,
  bounds?: NewsroomBounds,
): NewsroomHandlers {
  const current = async (): Promise<NewsroomSettings> => ({
    address: (await services.settings.get()).newsroomAddress,
    passwordSet: services.secrets.peek('newsroomPassword') !== undefined,
  });
  return {
    // One connection kept for every search and open (services.newsroomReader), not one per call.
    'newsroom.search': (query) => services.newsroomReader.use((newsroom) => searchNewsroom(newsroom, query)),
    'newsroom.open': ({ reporter, transcriptId }) =>
      services.newsroomReader.use((newsroom) => openNewsroomTranscript(newsroom, reporter, transcriptId)),
    'newsroom.keep': async (ref) => {
      const kept = await services.newsroomReader.use((newsroom) =>
        keepNewsroomTranscript(newsroom, services.core.library, ref, {
          audioDir: keptNewsroomAudioDir(services.dataFolder.current),
          onProgress: (progress) => services.newsroomKeepProgress.emit({ ...ref, ...progress }),
        }),
      );
      // Every window's library shows the copy (or its new revision) at once.
      if (kept.outcome !== 'unchanged')
        services.jobUpdated.emit(await services.core.library.requireJob(kept.id));
      return {
        id: kept.id,
        created: kept.created,
        updated: kept.outcome === 'updated',
        revision: kept.revision,
        hasAudio: kept.hasAudio,
      };
    },
    'newsroom.watch': async ({ watcher, watching }) => {
      if (watching) await services.newsroomReader.startWatching(watcher);
      else await services.newsroomReader.stopWatching(watcher);
      return { watching: services.newsroomReader.watching };
    },
    'newsroom.settings': current,
    'newsroom.setSettings': async ({ address, password }) => {
      const newsroomAddress = address.trim() === '' ? '' : newsroomAddressText(addressIn(address));
      if (password === null) await services.secrets.delete('newsroomPassword');
      else if (password !== undefined) await services.secrets.set('newsroomPassword', password);
      await services.settings.set({ newsroomAddress });
      // What search kept open for the newsroom or password before is closed before this answers.
      await services.newsroomReader.refresh();
      return current();
    },
    'newsroom.check': async (input) => {
      try {
        const address = addressIn(input.address);
        const password = input.password ?? services.secrets.peek('newsroomPassword');
        if (password === undefined) throw newsroomPasswordMissing(address.user);
        const identity = await checkNewsroom({ address, password }, settingsNaming, bounds);
        return { ok: true, message: newsroomIdentitySentence(identity) };
      } catch (error) {
        if (error instanceof VerbatimError) return { ok: false, message: error.message };
        throw error;
      }
    },
  };
}
