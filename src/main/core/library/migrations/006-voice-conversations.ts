/**
 * Conversations with the voice assistant, turn by turn (what the reporter said, what the agent
 * answered, which tools it used), with a full-text index over the turns kept in step by
 * triggers, as migration 2 does for sentences.
 */
export const sql = `
CREATE TABLE voice_conversations (
  id         TEXT PRIMARY KEY,
  session_id TEXT,
  started_at INTEGER NOT NULL,
  ended_at   INTEGER
);

CREATE TABLE voice_turns (
  id              INTEGER PRIMARY KEY,
  conversation_id TEXT NOT NULL REFERENCES voice_conversations (id) ON DELETE CASCADE,
  position        INTEGER NOT NULL,
  role            TEXT NOT NULL CHECK (role IN ('user', 'agent', 'tool')),
  text            TEXT NOT NULL,
  tool_name       TEXT,
  interrupted     INTEGER NOT NULL DEFAULT 0 CHECK (interrupted IN (0, 1)),
  at              INTEGER NOT NULL
);
CREATE INDEX voice_turns_by_conversation ON voice_turns (conversation_id, position);

CREATE VIRTUAL TABLE voice_turns_fts USING fts5 (
  text,
  content = 'voice_turns',
  content_rowid = 'id',
  tokenize = 'unicode61 remove_diacritics 2'
);

CREATE TRIGGER voice_turns_fts_insert AFTER INSERT ON voice_turns BEGIN
  INSERT INTO voice_turns_fts (rowid, text) VALUES (new.id, new.text);
END;
CREATE TRIGGER voice_turns_fts_delete AFTER DELETE ON voice_turns BEGIN
  INSERT INTO voice_turns_fts (voice_turns_fts, rowid, text) VALUES ('delete', old.id, old.text);
END;
CREATE TRIGGER voice_turns_fts_update AFTER UPDATE OF text ON voice_turns BEGIN
  INSERT INTO voice_turns_fts (voice_turns_fts, rowid, text) VALUES ('delete', old.id, old.text);
  INSERT INTO voice_turns_fts (rowid, text) VALUES (new.id, new.text);
END;
`;
