import { askEntrySchema, type AskEntry } from '../../../shared/ask';
import type { Db } from './database';
import { statement } from './statement-cache';

/**
 * The Ask conversation of each transcript, in the library database (migration 005), so a
 * conversation is still there after a restart. An entry that no longer reads as one (written
 * by a later version, say) is skipped rather than breaking the whole conversation.
 */
export class AskConversationStore {
  constructor(private readonly db: Db) {}

  list(transcriptId: string): AskEntry[] {
    const rows = statement(
      this.db,
      'SELECT entry_json FROM ask_entries WHERE transcript_id = ? ORDER BY id',
    ).all(transcriptId) as { entry_json: string }[];
    return rows.flatMap((row) => {
      const parsed = askEntrySchema.safeParse(JSON.parse(row.entry_json));
      return parsed.success ? [parsed.data] : [];
    });
  }

  append(transcriptId: string, entry: AskEntry): void {
    statement(
      this.db,
      'INSERT INTO ask_entries (transcript_id, kind, created_at, entry_json) VALUES (?, ?, ?, ?)',
    ).run(transcriptId, entry.kind, entry.at, JSON.stringify(entry));
  }

  clear(transcriptId: string): number {
    return statement(this.db, 'DELETE FROM ask_entries WHERE transcript_id = ?').run(transcriptId).changes;
  }
}
