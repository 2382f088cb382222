/**
 * Newsroom glossaries in the library (issue #36, point 1): a glossary may be the copy of a
 * glossary shared in a newsroom, so it works offline and is sent with every new transcription like
 * any glossary. Its row says which newsroom (the address with the user, as the copy is that
 * login's view), the newsroom glossary's id, its desk (NULL: the whole newsroom), its owner and
 * whether this user may change it; each entry keeps the newsroom revision it holds.
 *
 * Changes made here wait in `newsroom_glossary_changes` (one a spelling: a later change replaces
 * the waiting one) until the newsroom takes them, with the revision they were made on; proposals
 * wait in `newsroom_glossary_proposals`. What was read last is a cursor per newsroom.
 */
export const sql = `
ALTER TABLE glossaries ADD COLUMN newsroom TEXT;
ALTER TABLE glossaries ADD COLUMN newsroom_id TEXT;
ALTER TABLE glossaries ADD COLUMN newsroom_desk TEXT;
ALTER TABLE glossaries ADD COLUMN newsroom_owner TEXT;
ALTER TABLE glossaries ADD COLUMN newsroom_may_change INTEGER CHECK (newsroom_may_change IN (0, 1));
CREATE UNIQUE INDEX glossaries_by_newsroom_id ON glossaries (newsroom, newsroom_id)
  WHERE newsroom_id IS NOT NULL;

ALTER TABLE glossary_entries ADD COLUMN newsroom_revision INTEGER NOT NULL DEFAULT 0
  CHECK (newsroom_revision >= 0);

CREATE TABLE newsroom_glossary_changes (
  id             TEXT PRIMARY KEY,
  glossary_id    INTEGER NOT NULL REFERENCES glossaries (id) ON DELETE CASCADE,
  term_key       TEXT NOT NULL,
  base_revision  INTEGER NOT NULL CHECK (base_revision >= 0),
  entry_json     TEXT,
  created_at     INTEGER NOT NULL,
  UNIQUE (glossary_id, term_key)
);

CREATE TABLE newsroom_glossary_proposals (
  id           TEXT PRIMARY KEY,
  glossary_id  INTEGER NOT NULL REFERENCES glossaries (id) ON DELETE CASCADE,
  entry_json   TEXT NOT NULL,
  created_at   INTEGER NOT NULL
);

CREATE TABLE newsroom_glossary_cursors (
  newsroom   TEXT PRIMARY KEY,
  cursor     TEXT NOT NULL,
  pulled_at  INTEGER NOT NULL
);
`;
