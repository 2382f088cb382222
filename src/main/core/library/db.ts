import type Database from 'better-sqlite3';

/**
 * An open library connection. Its own module, so the modules database.ts opens the library
 * with (backups, damage) can name it without importing database.ts back.
 */
export type Db = Database.Database;
