/**
 * The newsroom glossary (issue #21, src/shared/glossary/glossary.ts): named glossaries of
 * entries, each the correct spelling of a name, place, organisation or term with the ways the
 * service mishears it. "General" exists from the start and applies to every new transcription;
 * a glossary can also apply by default to some presets (by the preset's name). `used_at` is what
 * "the most recently used" means when the service's key-term limit bites.
 */
export const sql = `
CREATE TABLE glossaries (
  id               INTEGER PRIMARY KEY,
  name             TEXT NOT NULL UNIQUE COLLATE NOCASE,
  used_by_default  INTEGER NOT NULL DEFAULT 0 CHECK (used_by_default IN (0, 1)),
  presets_json     TEXT NOT NULL DEFAULT '[]',
  created_at       INTEGER NOT NULL
);
INSERT INTO glossaries (name, used_by_default, created_at) VALUES ('General', 1, 0);

CREATE TABLE glossary_entries (
  id            INTEGER PRIMARY KEY,
  glossary_id   INTEGER NOT NULL REFERENCES glossaries (id) ON DELETE CASCADE,
  term          TEXT NOT NULL,
  kind          TEXT NOT NULL DEFAULT 'term' CHECK (kind IN ('person', 'place', 'organisation', 'term')),
  misheard_json TEXT NOT NULL DEFAULT '[]',
  note          TEXT NOT NULL DEFAULT '',
  used_at       INTEGER NOT NULL,
  UNIQUE (glossary_id, term COLLATE NOCASE)
);
CREATE INDEX glossary_entries_by_term ON glossary_entries (term COLLATE NOCASE);
`;
