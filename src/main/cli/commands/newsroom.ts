import { printResult } from '../cli-io';
import { defineCommand } from '../command';
import { newsroomAccessOf } from '../environment';
import { UsageError } from '../usage-error';
import { newsroomAddressText } from '../../core/newsroom/newsroom-address';
import { NewsroomConnection } from '../../core/newsroom/newsroom-connection';
import { newsroomIdentity } from '../../core/newsroom/newsroom-desks';
import {
  checkNewsroomSchema,
  knownNewsroomSchemaVersion,
  migrateNewsroom,
} from '../../core/newsroom/newsroom-migrations';

/**
 * `newsroom migrate` (an administrator, as the database's owner) brings the newsroom's server
 * schema up to this Verbatim's; `newsroom status` says whether the newsroom answers, its
 * schema version, and who you are there. The newsroom is named by VERBATIM_NEWSROOM_URL and
 * VERBATIM_NEWSROOM_PASSWORD; the password is never printed.
 */
export const newsroomCommand = defineCommand({
  name: 'newsroom',
  usage: ['migrate [--json]', 'status [--json]'],
  summary:
    'Works with the newsroom archive (VERBATIM_NEWSROOM_URL): migrate brings its schema up to date (for its administrator), status says whether it answers and who you are there.',
  options: {
    json: { type: 'boolean', description: 'prints the result as JSON' },
  },
  takesWords: true,
  upgradesLibraryFirst: false,
  async run({ values, positionals }, { io }) {
    const [action, ...rest] = positionals;
    if ((action !== 'migrate' && action !== 'status') || rest.length > 0)
      throw new UsageError(
        action
          ? `unknown newsroom command "${positionals.join(' ')}"`
          : 'newsroom needs a command: migrate or status',
      );
    const access = newsroomAccessOf(io.env);
    const where = newsroomAddressText(access.address);
    const newsroom = new NewsroomConnection(access.address, access.password);
    try {
      if (action === 'migrate') {
        const outcome = await newsroom.withClient((client) => migrateNewsroom(client));
        printResult(io, values.json, { address: where, ...outcome }, () =>
          outcome.applied.length === 0
            ? `The newsroom at ${where} is up to date: its schema is at version ${outcome.version}.`
            : `Migrated the newsroom at ${where} to schema version ${outcome.version} (applied ${outcome.applied.join(', ')}).`,
        );
        return 0;
      }
      const status = await newsroom.withClient(async (client) => {
        const schemaVersion = await checkNewsroomSchema(client);
        return { schemaVersion, ...(await newsroomIdentity(client)) };
      });
      printResult(
        io,
        values.json,
        { address: where, reachable: true, knownSchemaVersion: knownNewsroomSchemaVersion, ...status },
        () => {
          const desks =
            status.desks.length === 0
              ? "on no desk yet: ask your newsroom's administrator to add you to one."
              : `${status.desks.map(({ desk, role }) => `${role} on ${desk}`).join(', ')}.`;
          return `The newsroom at ${where} answers; its schema is at version ${status.schemaVersion}.\nYou are ${status.user}, ${desks}`;
        },
      );
      return 0;
    } finally {
      await newsroom.close();
    }
  },
});
