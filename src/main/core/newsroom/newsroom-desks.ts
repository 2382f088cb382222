import pg from 'pg';
import { z } from 'zod';
import { VerbatimError } from '../../../shared/errors';

/**
 * Desks, their members and the newsroom's login roles (issue #35, point 8's foundation). A
 * desk is a NOLOGIN role; membership is GRANT. Role names cannot be statement parameters, so
 * they are quoted with `pg`'s escapeIdentifier (a password with escapeLiteral); every value
 * elsewhere is a parameter. These run as an administrator (the database's owner).
 */

export type DeskRole = 'editor' | 'reporter';

const deskName = z
  .string()
  .trim()
  .min(1)
  .max(50)
  .regex(/^[^\p{Cc}]+$/u, 'has a control character')
  .refine((name) => Buffer.byteLength(deskRoleName(name)) <= 63, 'is longer than its role name may be');
const roleName = z
  .string()
  .min(1)
  .refine((name) => Buffer.byteLength(name) <= 63, 'is longer than 63 bytes');

const rules = {
  'desk name': 'must be 1 to 50 characters (58 bytes), without control characters',
  'user name': 'must be 1 to 63 bytes',
};

function checked<T>(schema: z.ZodType<T>, value: unknown, what: keyof typeof rules): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new VerbatimError('invalid_input', `The ${what} ${rules[what]}.`);
  return parsed.data;
}

/** The PostgreSQL role that is the desk `name`: its name, prefixed so it is never taken for a person. */
export function deskRoleName(name: string): string {
  return `desk ${name}`;
}

/** A login role for a person, with its password; an existing one gets the password anew. */
export async function createNewsroomLogin(
  client: pg.ClientBase,
  name: string,
  password: string,
): Promise<void> {
  const role = pg.escapeIdentifier(checked(roleName, name, 'user name'));
  const exists = await client.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [name]);
  // CREATE ROLE and ALTER ROLE take no parameters: the password is quoted as a literal.
  const secret = pg.escapeLiteral(password);
  await client.query(
    exists.rowCount === 0
      ? `CREATE ROLE ${role} LOGIN PASSWORD ${secret}`
      : `ALTER ROLE ${role} PASSWORD ${secret}`,
  );
}

/** Creates the desk `name` and its role, unless it is there. */
export async function createDesk(client: pg.ClientBase, name: string): Promise<void> {
  const desk = checked(deskName, name, 'desk name');
  await inTransaction(client, async () => {
    await client.query(
      'INSERT INTO verbatim.desks (name, role_name) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING',
      [desk, deskRoleName(desk)],
    );
    // Roles belong to the whole server, not one database: the desk's may be there already.
    const roleExists = await client.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [deskRoleName(desk)]);
    if (roleExists.rowCount === 0)
      await client.query(`CREATE ROLE ${pg.escapeIdentifier(deskRoleName(desk))} NOLOGIN`);
  });
}

/** Makes the login role `member` the desk's editor or reporter: the desk's role is granted to it. */
export async function addDeskMember(
  client: pg.ClientBase,
  member: { desk: string; user: string; role: DeskRole },
): Promise<void> {
  const desk = checked(deskName, member.desk, 'desk name');
  const user = checked(roleName, member.user, 'user name');
  await inTransaction(client, async () => {
    const deskRole = await deskRoleOf(client, desk);
    await checkUserExists(client, user);
    await client.query(
      `INSERT INTO verbatim.desk_members (desk, member, role) VALUES ($1, $2, $3)
       ON CONFLICT (desk, member) DO UPDATE SET role = excluded.role`,
      [desk, user, member.role],
    );
    await client.query(`GRANT ${pg.escapeIdentifier(deskRole)} TO ${pg.escapeIdentifier(user)}`);
  });
}

/**
 * Takes the login role `user` off the desk: its membership row is deleted and the desk's role
 * revoked, in one transaction, so what the tables say and what PostgreSQL enforces never differ.
 * Resolves to whether they were on it.
 */
export async function removeDeskMember(
  client: pg.ClientBase,
  member: { desk: string; user: string },
): Promise<boolean> {
  const desk = checked(deskName, member.desk, 'desk name');
  const user = checked(roleName, member.user, 'user name');
  let removed = false;
  await inTransaction(client, async () => {
    const deskRole = await deskRoleOf(client, desk);
    const deleted = await client.query('DELETE FROM verbatim.desk_members WHERE desk = $1 AND member = $2', [
      desk,
      user,
    ]);
    const granted = await client.query(
      `SELECT 1 FROM pg_auth_members a JOIN pg_roles d ON d.oid = a.roleid JOIN pg_roles m ON m.oid = a.member
       WHERE d.rolname = $1 AND m.rolname = $2`,
      [deskRole, user],
    );
    if (granted.rowCount !== 0)
      await client.query(`REVOKE ${pg.escapeIdentifier(deskRole)} FROM ${pg.escapeIdentifier(user)}`);
    removed = deleted.rowCount !== 0 || granted.rowCount !== 0;
  });
  return removed;
}

async function deskRoleOf(client: pg.ClientBase, desk: string): Promise<string> {
  const found = await client.query<{ role_name: string }>(
    'SELECT role_name FROM verbatim.desks WHERE name = $1',
    [desk],
  );
  const deskRole = found.rows[0]?.role_name;
  if (deskRole === undefined)
    throw new VerbatimError(
      'not_found',
      `There is no desk called ${desk} in this newsroom: create it first.`,
    );
  return deskRole;
}

async function checkUserExists(client: pg.ClientBase, user: string): Promise<void> {
  const found = await client.query('SELECT 1 FROM pg_roles WHERE rolname = $1 AND rolcanlogin', [user]);
  if (found.rowCount === 0)
    throw new VerbatimError(
      'not_found',
      `There is no user called ${user} in this newsroom: create their login first, then add them.`,
    );
}

/** Who the connection is logged in as, and on which desks, as what. */
export interface NewsroomIdentity {
  user: string;
  desks: { desk: string; role: DeskRole }[];
}

export async function newsroomIdentity(client: pg.ClientBase): Promise<NewsroomIdentity> {
  const who = await client.query<{ user: string }>('SELECT current_user AS "user"');
  const user = who.rows[0]?.user ?? '';
  const desks = await client.query<{ desk: string; role: DeskRole }>(
    `SELECT m.desk, m.role FROM verbatim.desk_members m JOIN verbatim.desks d ON d.name = m.desk
     WHERE m.member = $1 AND pg_has_role($1, d.role_name, 'MEMBER') ORDER BY m.desk`,
    [user],
  );
  return { user, desks: desks.rows };
}

async function inTransaction(client: pg.ClientBase, work: () => Promise<void>): Promise<void> {
  await client.query('BEGIN');
  try {
    await work();
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  }
}

/**
 * Refuses, in words, a desk that does not exist or does not have the user on it, before a
 * write that row-level security would refuse without them. `what` ends the sentences: what the
 * user was doing and where to turn ("publish to one of your desks").
 */
export async function requireOwnDesk(
  client: pg.ClientBase,
  desk: string,
  what: { missing: string; notMember: string },
): Promise<void> {
  const found = await client.query<{ member: boolean }>(
    `SELECT pg_has_role(current_user, role_name, 'MEMBER') AS member FROM verbatim.desks WHERE name = $1`,
    [desk],
  );
  const member = found.rows[0]?.member;
  if (member === undefined)
    throw new VerbatimError('not_found', `There is no desk called ${desk} in this newsroom: ${what.missing}`);
  if (!member)
    throw new VerbatimError(
      'forbidden',
      `You are not on the desk ${desk} in this newsroom, ${what.notMember}`,
    );
}
