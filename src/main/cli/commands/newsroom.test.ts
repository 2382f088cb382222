import { describe, expect, it } from 'vitest';
import { freePort } from '../../../../scripts/newsroom/local-postgres';
import {
  addDeskMember,
  createDesk,
  createNewsroomLogin,
  deskRoleName,
} from '../../core/newsroom/newsroom-desks';
import { knownNewsroomSchemaVersion, newsroomMigrations } from '../../core/newsroom/newsroom-migrations';
import { useNewsroomServer } from '../../core/newsroom/newsroom-server.test-kit';
import { runCliProcess, type CliRun } from '../cli-process.test-kit';

const server = useNewsroomServer();
const reporterPassword = 'pw-Reporter-7f3a9c';

function newsroom(args: string[], user: string, password: string): Promise<CliRun> {
  return runCliProcess(['newsroom', ...args], {
    VERBATIM_NEWSROOM_URL: server().urlFor(user),
    VERBATIM_NEWSROOM_PASSWORD: password,
  });
}

function expectNoPassword(run: CliRun, password: string): void {
  expect(run.stdout + run.stderr).not.toContain(password);
}

describe('newsroom migrate and status, as a person runs them', () => {
  it('migrate brings a fresh newsroom to this schema version once, then finds it up to date', async () => {
    const { adminPassword, port } = server();
    const first = await newsroom(['migrate'], 'postgres', adminPassword);
    expect(first).toMatchObject({ code: 0, stderr: '' });
    expect(first.stdout).toBe(
      `Migrated the newsroom at postgres://postgres@127.0.0.1:${port}/verbatim to schema version ${knownNewsroomSchemaVersion} (applied ${newsroomMigrations.map((migration) => migration.version).join(', ')}).\n`,
    );
    const again = await newsroom(['migrate', '--json'], 'postgres', adminPassword);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toEqual({
      address: `postgres://postgres@127.0.0.1:${port}/verbatim`,
      applied: [],
      version: knownNewsroomSchemaVersion,
    });
    expectNoPassword(first, adminPassword);
    expectNoPassword(again, adminPassword);
  });

  it('status says the newsroom answers, its schema version, and who the reporter is and on which desk', async () => {
    const { pool, port } = server();
    const client = await pool.connect();
    try {
      await createDesk(client, 'City');
      await createNewsroomLogin(client, 'ana', reporterPassword);
      await addDeskMember(client, { desk: 'City', user: 'ana', role: 'reporter' });
    } finally {
      client.release();
    }
    const status = await newsroom(['status'], 'ana', reporterPassword);
    expect(status).toMatchObject({ code: 0, stderr: '' });
    expect(status.stdout).toBe(
      `The newsroom at postgres://ana@127.0.0.1:${port}/verbatim answers; its schema is at version ${knownNewsroomSchemaVersion}.\nYou are ana, reporter on City.\n`,
    );
    const json = await newsroom(['status', '--json'], 'ana', reporterPassword);
    expect(JSON.parse(json.stdout)).toEqual({
      address: `postgres://ana@127.0.0.1:${port}/verbatim`,
      reachable: true,
      knownSchemaVersion: knownNewsroomSchemaVersion,
      schemaVersion: knownNewsroomSchemaVersion,
      user: 'ana',
      desks: [{ desk: 'City', role: 'reporter' }],
    });
    expectNoPassword(status, reporterPassword);
    expectNoPassword(json, reporterPassword);
  });

  it('migrate as a reporter is refused by PostgreSQL and said in words: it is for the administrator', async () => {
    const run = await newsroom(['migrate'], 'ana', reporterPassword);
    expect(run).toMatchObject({ code: 1, stdout: '' });
    expect(run.stderr).toBe(
      `verbatim: The newsroom at ${server().urlFor('ana')} does not let ana do that: it is for the newsroom's administrator (\`newsroom migrate\` connects as the owner of the database).\n`,
    );
    expectNoPassword(run, reporterPassword);
  });

  it('a wrong password, an unknown user and a port nothing listens on are each a sentence naming what to do, never the password', async () => {
    const { port } = server();
    const wrongPassword = await newsroom(['status'], 'ana', 'not-Her-Password-91');
    expect(wrongPassword).toMatchObject({ code: 2, stdout: '' });
    expect(wrongPassword.stderr).toBe(
      `verbatim: The newsroom at postgres://ana@127.0.0.1:${port}/verbatim refused the password for ana, or has no such user: check the user in VERBATIM_NEWSROOM_URL and VERBATIM_NEWSROOM_PASSWORD, or ask your newsroom's administrator.\n`,
    );
    expectNoPassword(wrongPassword, 'not-Her-Password-91');
    const unknownUser = await newsroom(['status', '--json'], 'nobody', reporterPassword);
    expect(unknownUser.code).toBe(2);
    expect(unknownUser.stderr).toContain('refused the password for nobody, or has no such user');
    expectNoPassword(unknownUser, reporterPassword);

    const nothingThere = await freePort();
    const refused = await runCliProcess(['newsroom', 'status'], {
      VERBATIM_NEWSROOM_URL: `postgres://ana@127.0.0.1:${nothingThere}/verbatim`,
      VERBATIM_NEWSROOM_PASSWORD: reporterPassword,
    });
    expect(refused).toMatchObject({ code: 1, stdout: '' });
    expect(refused.stderr).toBe(
      `verbatim: The newsroom at postgres://ana@127.0.0.1:${nothingThere}/verbatim cannot be reached: nothing answers there. Check the address in VERBATIM_NEWSROOM_URL and your network, or ask your newsroom's administrator whether it is running.\n`,
    );
    expectNoPassword(refused, reporterPassword);
  });

  it('an address that holds the password is refused without repeating it, and a missing password is asked for', async () => {
    const inAddress = await runCliProcess(['newsroom', 'status'], {
      VERBATIM_NEWSROOM_URL: `postgres://ana:${reporterPassword}@127.0.0.1:${server().port}/verbatim`,
      VERBATIM_NEWSROOM_PASSWORD: undefined,
    });
    expect(inAddress.code).toBe(2);
    expect(inAddress.stderr).toBe(
      'verbatim: VERBATIM_NEWSROOM_URL must not hold the password: remove it from the address and set VERBATIM_NEWSROOM_PASSWORD instead.\n',
    );
    expectNoPassword(inAddress, reporterPassword);
    const noAddress = await runCliProcess(['newsroom', 'status'], { VERBATIM_NEWSROOM_URL: undefined });
    expect(noAddress).toMatchObject({
      code: 2,
      stderr:
        "verbatim: Set VERBATIM_NEWSROOM_URL to your newsroom's address, such as postgres://reporter@db.example.org:5432/verbatim.\n",
    });
    const noPassword = await newsroom(['status'], 'ana', '');
    expect(noPassword).toMatchObject({
      code: 2,
      stderr: 'verbatim: Set VERBATIM_NEWSROOM_PASSWORD to the newsroom password of ana.\n',
    });
  });

  it('status refuses a newsroom whose schema is newer than this Verbatim knows, saying to update Verbatim', async () => {
    await server().pool.query('INSERT INTO verbatim.schema_versions (version) VALUES ($1)', [
      knownNewsroomSchemaVersion + 1,
    ]);
    const status = await newsroom(['status'], 'ana', reporterPassword);
    expect(status).toMatchObject({ code: 1, stdout: '' });
    expect(status.stderr).toBe(
      `verbatim: The newsroom's archive was set up by a newer Verbatim (schema version ${knownNewsroomSchemaVersion + 1}; this one knows up to ${knownNewsroomSchemaVersion}): update Verbatim to use it.\n`,
    );
  });
});

describe('newsroom add-member and remove-member, as an administrator runs them', () => {
  const editorPassword = 'pw-Editor-2b8d41';

  async function isMember(user: string, desk: string): Promise<boolean> {
    const found = await server().pool.query<{ member: boolean }>(
      "SELECT pg_has_role($1, $2, 'MEMBER') AS member",
      [user, deskRoleName(desk)],
    );
    return found.rows[0]?.member ?? false;
  }

  it('add-member puts a user on a desk as its editor; remove-member takes them off, in PostgreSQL and in words', async () => {
    const { adminPassword, pool } = server();
    const client = await pool.connect();
    try {
      await createNewsroomLogin(client, 'cleo', editorPassword);
    } finally {
      client.release();
    }
    const added = await newsroom(
      ['add-member', 'cleo', '--desk', 'City', '--editor'],
      'postgres',
      adminPassword,
    );
    expect(added).toMatchObject({
      code: 0,
      stderr: '',
      stdout: 'cleo is now the editor of the desk City.\n',
    });
    expect(await isMember('cleo', 'City')).toBe(true);
    const role = await pool.query("SELECT desk, role FROM verbatim.desk_members WHERE member = 'cleo'");
    expect(role.rows).toEqual([{ desk: 'City', role: 'editor' }]);

    const removed = await newsroom(
      ['remove-member', 'cleo', '--desk', 'City', '--json'],
      'postgres',
      adminPassword,
    );
    expect(removed).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(removed.stdout)).toEqual({
      address: server().urlFor('postgres'),
      user: 'cleo',
      desk: 'City',
      removed: true,
    });
    expect(await isMember('cleo', 'City')).toBe(false);
    const members = await pool.query("SELECT 1 FROM verbatim.desk_members WHERE member = 'cleo'");
    expect(members.rowCount).toBe(0);
    const again = await newsroom(['remove-member', 'cleo', '--desk', 'City'], 'postgres', adminPassword);
    expect(again).toMatchObject({ code: 0, stdout: 'cleo was not on the desk City: nothing changed.\n' });
    expectNoPassword(added, adminPassword);
    expectNoPassword(removed, adminPassword);
  });

  it('a reporter running them is refused by PostgreSQL and told only the administrator can; nothing changes', async () => {
    for (const args of [
      ['add-member', 'ana', '--desk', 'City', '--editor'],
      ['remove-member', 'ana', '--desk', 'City'],
    ]) {
      const run = await newsroom(args, 'ana', reporterPassword);
      expect(run).toMatchObject({ code: 1, stdout: '' });
      expect(run.stderr).toBe(
        "verbatim: Only the newsroom's administrator can put users on desks or take them off, and ana is not: ask them to run it.\n",
      );
      expectNoPassword(run, reporterPassword);
    }
    expect(await isMember('ana', 'City')).toBe(true);
    const role = await server().pool.query("SELECT role FROM verbatim.desk_members WHERE member = 'ana'");
    expect(role.rows).toEqual([{ role: 'reporter' }]);
  });

  it('an unknown desk or user, or a missing --desk, is a sentence saying what to do', async () => {
    const { adminPassword } = server();
    const noDesk = await newsroom(['add-member', 'ana', '--desk', 'Sport'], 'postgres', adminPassword);
    // Not found: a mistake in the command (exit 2), as with any name that is not there.
    expect(noDesk).toMatchObject({
      code: 2,
      stderr: 'verbatim: There is no desk called Sport in this newsroom: create it first.\n',
    });
    const noUser = await newsroom(['add-member', 'zed', '--desk', 'City'], 'postgres', adminPassword);
    expect(noUser).toMatchObject({
      code: 2,
      stderr:
        'verbatim: There is no user called zed in this newsroom: create their login first, then add them.\n',
    });
    const missing = await newsroom(['remove-member', 'ana'], 'postgres', adminPassword);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('newsroom remove-member needs --desk NAME');
  });
});
