import { VerbatimError } from '../../../shared/errors';
import type { NewsroomArchiveWriter, OutboxItem } from '../newsroom/publication';

/**
 * Test support: the archive at the network boundary, as the contract describes it — it keeps,
 * per transcript, the newest item it applied and ignores an older revision — with failures the
 * test queues: the next calls throw them in turn, before anything is applied.
 */
export class FakeArchive implements NewsroomArchiveWriter {
  /** Every call that reached the archive and was applied, in order. */
  readonly applied: OutboxItem[] = [];
  /** The newest item per transcript. */
  readonly held = new Map<string, OutboxItem>();
  private readonly failures: VerbatimError[] = [];
  /** Resolves the call in flight, when the test holds calls back (see `hold`). */
  private gate: Promise<void> | undefined;
  private release: (() => void) | undefined;
  private reached: (() => void) | undefined;

  failNext(...codes: ('network' | 'timeout' | 'forbidden' | 'invalid_input')[]): void {
    for (const code of codes) this.failures.push(new VerbatimError(code, `The newsroom said ${code}.`));
  }

  /** Holds the next calls until `let go`; resolves once a call is waiting. */
  hold(): { arrived: Promise<void>; letGo: () => void } {
    this.gate = new Promise((resolve) => (this.release = resolve));
    const arrived = new Promise<void>((resolve) => (this.reached = resolve));
    return {
      arrived,
      letGo: () => {
        this.gate = undefined;
        this.release?.();
      },
    };
  }

  async apply(item: OutboxItem): Promise<void> {
    if (this.gate) {
      this.reached?.();
      await this.gate;
    }
    const failure = this.failures.shift();
    if (failure) throw failure;
    this.applied.push(item);
    const id = item.kind === 'publish' ? item.publication.transcriptId : item.transcriptId;
    const held = this.held.get(id);
    if (!held || revisionOf(held) < revisionOf(item)) this.held.set(id, item);
  }
}

export function revisionOf(item: OutboxItem): number {
  return item.kind === 'publish' ? item.publication.revision : item.revision;
}
