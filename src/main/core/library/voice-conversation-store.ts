import type { Db } from './database';
import { cleanText, highlight, queryTerms, toFtsQuery } from './fts-query';
import type { ConversationSummary, ConversationTurn, ConversationHit, TurnRole } from '../../../shared/voice';
import { flag, rowMapping, value } from './row-mapping';
import { statement } from './statement-cache';

/** Conversations with the voice assistant in the library (migration 6), searchable by their words. */
export class VoiceConversationStore {
  constructor(private readonly db: Db) {}

  begin(id: string, startedAt: number): void {
    statement(this.db, 'INSERT INTO voice_conversations (id, started_at) VALUES (?, ?)').run(id, startedAt);
  }

  setSession(id: string, sessionId: string): void {
    statement(this.db, 'UPDATE voice_conversations SET session_id = ? WHERE id = ?').run(sessionId, id);
  }

  end(id: string, endedAt: number): void {
    statement(this.db, 'UPDATE voice_conversations SET ended_at = ? WHERE id = ?').run(endedAt, id);
  }

  addTurn(
    conversationId: string,
    turn: { role: TurnRole; text: string; toolName?: string; interrupted?: boolean; at: number },
  ): void {
    statement(
      this.db,
      `INSERT INTO voice_turns (conversation_id, position, role, text, tool_name, interrupted, at)
         VALUES (?, (SELECT count(*) FROM voice_turns WHERE conversation_id = ?), ?, ?, ?, ?, ?)`,
    ).run(
      conversationId,
      conversationId,
      turn.role,
      cleanText(turn.text),
      turn.toolName ?? null,
      turn.interrupted ? 1 : 0,
      turn.at,
    );
  }

  list(limit = 50): ConversationSummary[] {
    const rows = statement(
      this.db,
      `SELECT c.id, c.started_at, c.ended_at,
                (SELECT count(*) FROM voice_turns t WHERE t.conversation_id = c.id) AS turns,
                (SELECT text FROM voice_turns t WHERE t.conversation_id = c.id AND t.role = 'user'
                 ORDER BY position LIMIT 1) AS first_question
         FROM voice_conversations c ORDER BY c.started_at DESC, c.rowid DESC LIMIT ?`,
    ).all(limit) as {
      id: string;
      started_at: number;
      ended_at: number | null;
      turns: number;
      first_question: string | null;
    }[];
    return rows.map((row) => ({
      id: row.id,
      startedAt: row.started_at,
      endedAt: row.ended_at,
      turns: row.turns,
      firstQuestion: row.first_question,
    }));
  }

  turns(conversationId: string): ConversationTurn[] {
    const rows = statement(
      this.db,
      'SELECT id, role, text, tool_name, interrupted, at FROM voice_turns WHERE conversation_id = ? ORDER BY position',
    ).all(conversationId);
    return rows.map(turnRow.fromRow);
  }

  search(query: string, limit = 20): ConversationHit[] {
    const match = toFtsQuery(query);
    if (!match) return [];
    const terms = queryTerms(query);
    const rows = statement(
      this.db,
      `SELECT t.id, t.role, t.text, t.tool_name, t.interrupted, t.at, t.conversation_id
         FROM voice_turns_fts f JOIN voice_turns t ON t.id = f.rowid
         WHERE voice_turns_fts MATCH ? ORDER BY bm25(voice_turns_fts) LIMIT ?`,
    ).all(match, limit) as { conversation_id: string; text: string }[];
    return rows.map((row) => ({
      conversationId: row.conversation_id,
      turn: turnRow.fromRow(row),
      snippet: highlight(row.text, terms),
    }));
  }
}

const turnRow = rowMapping({
  id: value<number>('id'),
  role: value<TurnRole>('role'),
  text: value<string>('text'),
  toolName: value<string | null>('tool_name'),
  interrupted: flag('interrupted'),
  at: value<number>('at'),
});
