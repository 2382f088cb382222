/**
 * Runs synchronous database work so that a failure arrives as a rejection, like async I/O: the
 * stores are synchronous (better-sqlite3), their facades async so the database can move to a
 * worker thread later without changing a caller.
 */
export function settle<T>(work: () => T): Promise<T> {
  try {
    return Promise.resolve(work());
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
}
