import { Signal } from '../../base/signal';

/**
 * Typing not yet stored, asked for before a quit. The reader stores a turn a second after the
 * journalist stops typing (autosave); a quit inside that second would lose the words. So the
 * quit asks every page to store what it holds now (`corrections.flush`), and waits for each
 * page's answer (`corrections.flushed`) before the library closes.
 */
export class UnsavedEdits {
  /** A flush asked of the pages, with the number their answers carry. */
  readonly requested = new Signal<{ request: number }>();
  private next = 1;
  private readonly waiting = new Map<number, { answers: number; done: () => void }>();

  /** Asks every page to store its typing; resolves once `pages` pages answered. */
  flush(pages: number): Promise<void> {
    if (pages <= 0) return Promise.resolve();
    const request = this.next++;
    const answered = new Promise<void>((done) => this.waiting.set(request, { answers: pages, done }));
    this.requested.emit({ request });
    return answered;
  }

  /** A page stored what it held for `request`. An answer to no flush asked is ignored. */
  flushed(request: number): void {
    const waiting = this.waiting.get(request);
    if (!waiting) return;
    waiting.answers--;
    if (waiting.answers > 0) return;
    this.waiting.delete(request);
    waiting.done();
  }
}
