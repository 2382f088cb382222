import { askEntrySchema, type AskEntry } from '../../../shared/ask';
import type { Db } from './database';

/**
 * The Ask conversation of each transcript, in the library database (migration 005), so a
 * conversation is still there after a restart. An entry that no longer reads as one (written
 * by a later version, say) is skipped rather than breaking the whole conversation.
 */
export class AskConversationStore {
  constructor(private readonly db: Db) {}

  list(transcriptId: string): AskEntry[] {
    const rows = this.db
      .prepare('SELECT entry_json FROM ask_entries WHERE transcript_id = ? ORDER BY id')
      .all(transcriptId) as { entry_json: string }[];
    return rows.flatMap((row) => {
      const parsed = askEntrySchema.safeParse(JSON.parse(row.entry_json));
      return parsed.success ? [parsed.data] : [];
    });
  }

  append(transcriptId: string, entry: AskEntry): void {
    this.db
      .prepare('INSERT INTO ask_entries (transcript_id, kind, created_at, entry_json) VALUES (?, ?, ?, ?)')
      .run(transcriptId, entry.kind, entry.at, JSON.stringify(entry));
  }

  clear(transcriptId: string): number {
    return this.db.prepare('DELETE FROM ask_entries WHERE transcript_id = ?').run(transcriptId).changes;
  }
}
