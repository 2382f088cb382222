import { VerbatimError } from '../../../shared/errors';
import type { NewsroomAccess, NewsroomNaming } from './newsroom-address';
import { defaultNewsroomBounds, NewsroomConnection, type NewsroomBounds } from './newsroom-connection';
import { newsroomIdentity, type NewsroomIdentity } from './newsroom-desks';
import { checkNewsroomSchema } from './newsroom-migrations';

/**
 * Connects to the newsroom once, as the reporter, and answers who they are there and on which
 * desks; a newsroom without Verbatim's archive, or with a newer one, is refused in words.
 */
export async function checkNewsroom(
  access: NewsroomAccess,
  naming: NewsroomNaming,
  bounds: NewsroomBounds = defaultNewsroomBounds,
): Promise<NewsroomIdentity> {
  const newsroom = new NewsroomConnection(access.address, access.password, bounds, naming);
  try {
    return await newsroom.withClient(async (client) => {
      await checkNewsroomSchema(client);
      return newsroomIdentity(client);
    });
  } finally {
    await newsroom.close();
  }
}

/** "Connected as ana: City (reporter), Politics (editor)." */
export function newsroomIdentitySentence(identity: NewsroomIdentity): string {
  if (identity.desks.length === 0)
    return `Connected as ${identity.user}, who is on no desk yet: ask your newsroom's administrator to add you to one.`;
  return `Connected as ${identity.user}: ${identity.desks.map(({ desk, role }) => `${desk} (${role})`).join(', ')}.`;
}

/** The newsroom has no password yet: where to enter it. */
export function newsroomPasswordMissing(user: string): VerbatimError {
  return new VerbatimError(
    'unauthorized',
    `No newsroom password is set yet: enter the password of ${user} in Settings.`,
  );
}
