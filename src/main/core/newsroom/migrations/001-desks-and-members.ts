/**
 * Desks and their members (issue #35, points 3 and 8). A desk IS a PostgreSQL role (NOLOGIN),
 * and a member is a login role GRANTed the desk's role, so row-level security can later say
 * "visible to the members of its desks" with `pg_has_role`. The tables below record which
 * role is which desk, and whether a member is its editor or a reporter; desks and members are
 * made through newsroom-desks.ts, which creates and grants the roles in the same transaction.
 *
 * Later migrations add: 002 the published transcripts, their sentences (with a `tsvector`
 * column and a GIN index for search), highlights and audio chunks; 003 row-level security on
 * them by desk, which asks `pg_has_role` and this file's `desk_members.role`.
 */
export const sql = `
CREATE TABLE verbatim.desks (
  name       text PRIMARY KEY CHECK (length(name) BETWEEN 1 AND 50),
  role_name  name NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE verbatim.desk_members (
  desk      text NOT NULL REFERENCES verbatim.desks (name) ON DELETE CASCADE,
  member    name NOT NULL,
  role      text NOT NULL CHECK (role IN ('editor', 'reporter')),
  added_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (desk, member)
);
CREATE INDEX desk_members_by_member ON verbatim.desk_members (member);

-- Every member reads who is on which desk (newsroom status); only the owner changes it.
GRANT SELECT ON verbatim.desks, verbatim.desk_members TO PUBLIC;
`;
