/**
 * Keeps a search for a job's lost transcript ("was it made on the service before the answer
 * was lost?") apart from the creations of the same recording that are still on their way.
 *
 * A recording at a URL may be transcribed many times (a council feed, a newsroom's own file),
 * so the service's list can hold several transcripts with the same audio_url. A job whose
 * creation failed looks for an unclaimed one among them; if another job's creation has reached
 * the service but its answer (and so its saved remote id) has not come back yet, that
 * transcript looks unclaimed, and two jobs would end up claiming one transcript (issue #34: the
 * scheduler bench lost 5 of 200 jobs to "UNIQUE constraint failed").
 *
 * So, per recording: creations run side by side ("shared"), and a search waits until every
 * creation already on its way has ended and saved what it got, while new creations wait for the
 * search ("exclusive"). A read–write lock per key, with the writer first so searches are never
 * starved.
 */
export class CreateAdoptGate {
  private readonly keys = new Map<string, KeyState>();

  /** Runs a creation of `key`'s recording; it may run alongside others, never alongside a search. */
  async creating<T>(key: string, create: () => Promise<T>): Promise<T> {
    const state = await this.claim(key, (free) => {
      free.creations += 1;
    });
    try {
      return await create();
    } finally {
      state.creations -= 1;
      if (state.creations === 0) state.wakeSearch?.();
      this.forgetIfIdle(key, state);
    }
  }

  /** Runs a search for `key`'s lost transcript once no creation of it is on its way. */
  async searching<T>(key: string, search: () => Promise<T>): Promise<T> {
    let settle = (): void => {};
    const ended = new Promise<void>((resolve) => {
      settle = resolve;
    });
    const state = await this.claim(key, (free) => {
      free.search = ended;
    });
    try {
      if (state.creations > 0)
        await new Promise<void>((resolve) => {
          state.wakeSearch = resolve;
        });
      state.wakeSearch = undefined;
      return await search();
    } finally {
      state.search = undefined;
      this.forgetIfIdle(key, state);
      settle();
    }
  }

  /** How many recordings have a creation or a search going (for tests: nothing is kept after). */
  get busyKeys(): number {
    return this.keys.size;
  }

  /**
   * Waits until no search of `key` is under way, then takes its turn in the same tick as it
   * found the key free, so two waiters woken together cannot both start a search.
   */
  private async claim(key: string, take: (state: KeyState) => void): Promise<KeyState> {
    for (;;) {
      let state = this.keys.get(key);
      if (!state) {
        state = { creations: 0 };
        this.keys.set(key, state);
      }
      if (!state.search) {
        take(state);
        return state;
      }
      await state.search;
    }
  }

  private forgetIfIdle(key: string, state: KeyState): void {
    if (state.creations === 0 && !state.search && this.keys.get(key) === state) this.keys.delete(key);
  }
}

interface KeyState {
  creations: number;
  /** Settles when the search under way ends. */
  search?: Promise<void>;
  /** Lets the waiting search go once the last creation on its way has ended. */
  wakeSearch?: () => void;
}
