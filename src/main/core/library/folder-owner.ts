import Database from 'better-sqlite3';
import { readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { VerbatimError } from '../../../shared/errors';

/**
 * One process at a time sends the jobs of a data folder to the service: the app, the web host
 * or a command line, whichever came first. Two schedulers driving the same stored jobs would
 * each create them on the service (paid twice, and the extra copies untracked).
 *
 * The claim is an exclusive SQLite lock on `owner.lock`, held for as long as the process
 * lives. The operating system drops it when the process ends in any way — quit, crash,
 * SIGKILL, power cut — so a stale claim can never keep a folder stuck. Every other process on
 * the folder still reads, searches, exports and stores new jobs; the owner picks those up.
 */
export interface FolderOwnership {
  /** Whether this process holds the claim now. */
  readonly owned: boolean;
  /** Tries to take the claim (the previous owner may have ended); true when held. */
  tryClaim(): boolean;
  /** Who holds the claim, as that process wrote it down (for messages); undefined if unknown. */
  ownerDescription(): string | undefined;
  release(): void;
}

export function claimDataFolder(dataDir: string, description: string): FolderOwnership {
  const lockPath = join(dataDir, 'owner.lock');
  const notePath = join(dataDir, 'owner.txt');
  let db: Database.Database | undefined;

  const attemptClaim = (): boolean => {
    if (db) return true;
    // No busy wait: another owner means "not now", answered at once.
    const candidate = new Database(lockPath, { timeout: 0 });
    try {
      candidate.pragma('locking_mode = EXCLUSIVE');
      // The first write in exclusive mode takes the lock and keeps it until the connection closes.
      candidate.exec('BEGIN EXCLUSIVE; CREATE TABLE IF NOT EXISTS owner (pid INTEGER); COMMIT;');
      db = candidate;
      writeFileSync(notePath, `${description} (process ${process.pid})\n`);
      return true;
    } catch (error) {
      candidate.close();
      if ((error as { code?: unknown }).code === 'SQLITE_BUSY') return false;
      throw error;
    }
  };

  const tryClaim = (): boolean => {
    if (db) return true;
    if (isFolder(lockPath))
      throw new VerbatimError(
        'storage',
        `Verbatim keeps a small lock file at ${lockPath}, but a folder has that name. Move the folder elsewhere (Verbatim did not make it), then try again.`,
        { path: lockPath },
      );
    try {
      return attemptClaim();
    } catch (error) {
      if (!isDamagedDatabase(error)) throw error;
      // Damaged (random bytes, a half-written copy). A live owner holds an exclusive lock,
      // which SQLite meets before it reads a byte, so nobody holds this one; and the lock file
      // holds no data. Emptied in place (the same file, so a lock taken meanwhile still
      // counts), it is a valid empty database again.
      truncateSync(lockPath, 0);
      try {
        return attemptClaim();
      } catch (again) {
        if (!isDamagedDatabase(again)) throw again;
        throw new VerbatimError(
          'storage',
          `Verbatim's lock file ${lockPath} is damaged and could not be mended. Delete it (it holds no data) while no Verbatim is running, then try again.`,
          { path: lockPath },
        );
      }
    }
  };

  tryClaim();
  return {
    get owned() {
      return db !== undefined;
    },
    tryClaim,
    ownerDescription: () => {
      try {
        return readFileSync(notePath, 'utf8').trim() || undefined;
      } catch {
        return undefined;
      }
    },
    release: () => {
      db?.close();
      db = undefined;
    },
  };
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** SQLite's word for a file that is not (or no longer) a database. */
function isDamagedDatabase(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT';
}
