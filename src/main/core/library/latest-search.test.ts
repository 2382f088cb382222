import { describe, expect, it } from 'vitest';
import type { VerbatimError } from '../../../shared/errors';
import { LatestSearch } from './latest-search';

describe('LatestSearch', () => {
  it('runs only the newest of the searches a searcher sent before any started', async () => {
    const latest = new LatestSearch();
    const ran: string[] = [];
    const search = (searcher: string | undefined, query: string): Promise<string> =>
      latest.run(searcher, () => {
        ran.push(query);
        return Promise.resolve(query);
      });
    const typed = ['m', 'ma', 'may'].map((query) => search('window 1', query));
    const other = search('window 2', 'ferry');
    const unnamed = search(undefined, 'council');
    const settled = await Promise.allSettled([...typed, other, unnamed]);
    expect(
      settled.map((result) =>
        result.status === 'fulfilled' ? result.value : (result.reason as VerbatimError).code,
      ),
    ).toEqual(['cancelled', 'cancelled', 'may', 'ferry', 'council']);
    // The superseded ones never reached the database.
    expect(ran.toSorted()).toEqual(['council', 'ferry', 'may']);
    // A search sent after the last one finished runs as usual.
    expect(await search('window 1', 'mayor')).toBe('mayor');
  });
});
