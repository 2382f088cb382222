import { openDatabase, type Db, type OpenOptions } from './database';
import { backupIfDue } from './library-backups';
import { forgetStatements } from './statement-cache';
import { Library } from './library';
import { GlossaryStore } from './glossary-store';
import { NoticeStore } from './notice-store';
import { Recordings } from './recordings';
import { RecordingMarks } from './recording-marks';
import { CatalogCache } from './catalog-cache';
import { AskConversationStore } from './ask-conversation-store';
import { VoiceConversationStore } from './voice-conversation-store';

/**
 * The one way into the library database: an open library file and the stores over it. Only
 * modules in this folder hold the better-sqlite3 connection (eslint.config.js refuses it
 * elsewhere), so every statement the app runs on the library is one a store here defines.
 */
export class LibraryDatabase {
  readonly catalogCache: CatalogCache;
  readonly askConversations: AskConversationStore;
  readonly voiceConversations: VoiceConversationStore;
  readonly recordingMarks: RecordingMarks;

  private constructor(private readonly db: Db) {
    this.catalogCache = new CatalogCache(db);
    this.askConversations = new AskConversationStore(db);
    this.voiceConversations = new VoiceConversationStore(db);
    this.recordingMarks = new RecordingMarks(db);
  }

  /** Opens (or creates and upgrades) the library file; see openDatabase for what is refused. */
  static open(path: string, options: OpenOptions = {}): LibraryDatabase {
    return new LibraryDatabase(openDatabase(path, undefined, options));
  }

  /** Stores over a connection a test built its fixture on. */
  static over(db: Db): LibraryDatabase {
    return new LibraryDatabase(db);
  }

  /** The transcripts, highlights and stories; `now` stamps what it saves. */
  library(now: () => number): Library {
    return new Library(this.db, now);
  }

  glossaryStore(now: () => number): GlossaryStore {
    return new GlossaryStore(this.db, now);
  }

  /** What working together told the reporter (issue #36). */
  noticeStore(now: () => number): NoticeStore {
    return new NoticeStore(this.db, now);
  }

  recordings(now: () => number): Recordings {
    return new Recordings(this.db, now);
  }

  /** The daily backup next to `libraryPath`, when one is due (library-backups.ts). */
  backupIfDue(libraryPath: string): Promise<string | undefined> {
    return backupIfDue(this.db, libraryPath);
  }

  /** A consistent copy of the open library at `path` (SQLite's online backup). */
  async copyTo(path: string): Promise<void> {
    await this.db.backup(path);
  }

  close(): void {
    forgetStatements(this.db);
    this.db.close();
  }

  /**
   * The connection under a LibraryDatabase, for tests that set up or break a fixture on it
   * (eslint.config.js refuses it to shipped code outside this folder).
   */
  static connectionOf(database: LibraryDatabase): Db {
    return database.db;
  }
}
