import { api } from './api';

/** What stores the typing an open reader holds now (its corrections' flush). */
type Flush = () => Promise<unknown>;

const flushes = new Set<Flush>();

/** The open reader registers how to store its typing; the returned function unregisters it. */
export function provideUnsavedEdits(flush: Flush): () => void {
  flushes.add(flush);
  return () => void flushes.delete(flush);
}

/**
 * Verbatim is quitting (`corrections.flush`): every open reader stores what was typed now,
 * rather than a second later, then the page answers so main may close the library. The answer
 * goes even when storing failed: the reader says why, and the quit must not wait for nothing.
 */
export async function storeUnsavedEdits(request: number): Promise<void> {
  try {
    await Promise.all([...flushes].map((flush) => flush()));
  } finally {
    await api.corrections.flushed({ request });
  }
}
