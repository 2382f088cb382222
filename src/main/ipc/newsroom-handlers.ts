import type { Handlers } from '../../shared/ipc/contract';
import type { NewsroomSettings } from '../../shared/ipc/newsroom-contract';
import { VerbatimError } from '../../shared/errors';
import type { Services } from '../core/app-services';
import {
  newsroomAddressText,
  parseNewsroomAddress,
  settingsNaming,
  type NewsroomAddress,
} from '../core/newsroom/newsroom-address';
import {
  checkNewsroom,
  newsroomIdentitySentence,
  newsroomPasswordMissing,
} from '../core/newsroom/newsroom-check';
import { NewsroomConnection, type NewsroomBounds } from '../core/newsroom/newsroom-connection';
import { openNewsroomTranscript, searchNewsroom } from '../core/newsroom/newsroom-search';

type NewsroomHandlers = Pick<
  Handlers,
  'newsroom.settings' | 'newsroom.setSettings' | 'newsroom.check' | 'newsroom.search' | 'newsroom.open'
>;

/** The address as Settings has it, checked before anything connects; the password is never in it. */
function addressIn(text: string): NewsroomAddress {
  if (text.trim() === '')
    throw new VerbatimError(
      'invalid_input',
      "Enter the newsroom's address first, such as postgres://reporter@db.example.org:5432/verbatim.",
    );
  return parseNewsroomAddress(text, 'The newsroom address', settingsNaming);
}

/**
 * Runs `work` on a connection to the newsroom of Settings, as its reporter, closed after; a
 * sentence when none is set or its password is not.
 */
export async function withSettingsNewsroom<T>(
  services: Pick<Services, 'settings' | 'secrets'>,
  bounds: NewsroomBounds | undefined,
  work: (newsroom: NewsroomConnection) => Promise<T>,
): Promise<T> {
  const saved = (await services.settings.get()).newsroomAddress;
  if (saved === '')
    throw new VerbatimError(
      'not_found',
      "No newsroom is set yet: enter its address and your password in Settings, as your newsroom's administrator gave them.",
    );
  const address = addressIn(saved);
  const password = services.secrets.peek('newsroomPassword');
  if (password === undefined) throw newsroomPasswordMissing(address.user);
  const newsroom = new NewsroomConnection(address, password, bounds, settingsNaming);
  try {
    return await work(newsroom);
  } finally {
    await newsroom.close();
  }
}

/**
 * The newsroom in Settings (issue #35): its address is a setting, its password is in the key
 * store (encrypted with the OS's, as the service key is) and never leaves main.
 */
export function createNewsroomHandlers(
  services: Pick<Services, 'settings' | 'secrets'>,
  bounds?: NewsroomBounds,
): NewsroomHandlers {
  const current = async (): Promise<NewsroomSettings> => ({
    address: (await services.settings.get()).newsroomAddress,
    passwordSet: services.secrets.peek('newsroomPassword') !== undefined,
  });
  const withNewsroom = <T>(work: (newsroom: NewsroomConnection) => Promise<T>): Promise<T> =>
    withSettingsNewsroom(services, bounds, work);
  return {
    'newsroom.search': (query) => withNewsroom((newsroom) => searchNewsroom(newsroom, query)),
    'newsroom.open': ({ reporter, transcriptId }) =>
      withNewsroom((newsroom) => openNewsroomTranscript(newsroom, reporter, transcriptId)),
    'newsroom.settings': current,
    'newsroom.setSettings': async ({ address, password }) => {
      const newsroomAddress = address.trim() === '' ? '' : newsroomAddressText(addressIn(address));
      if (password === null) await services.secrets.delete('newsroomPassword');
      else if (password !== undefined) await services.secrets.set('newsroomPassword', password);
      await services.settings.set({ newsroomAddress });
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
