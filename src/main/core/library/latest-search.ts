import { VerbatimError } from '../../../shared/errors';

/**
 * Runs only the newest search of each searcher (a window's search box: issue #22, "a query the
 * journalist has moved past is not left running on the main process's database thread"). A
 * search waits one turn of the event loop before it starts: the keystrokes that arrived
 * meanwhile are read first, and every search but the newest of its searcher ends as `cancelled`
 * without touching the database. A started search runs to its end (SQLite cannot be paused
 * mid-statement here), which the index keeps short. Searches without a searcher always run.
 */
export class LatestSearch {
  private readonly newest = new Map<string, number>();
  private ticket = 0;

  async run<T>(searcher: string | undefined, search: () => Promise<T>): Promise<T> {
    if (searcher === undefined) return search();
    const ticket = ++this.ticket;
    this.newest.set(searcher, ticket);
    await new Promise((resolve) => setImmediate(resolve));
    if (this.newest.get(searcher) !== ticket)
      throw new VerbatimError('cancelled', 'A newer search replaced this one.');
    try {
      return await search();
    } finally {
      if (this.newest.get(searcher) === ticket) this.newest.delete(searcher);
    }
  }
}
