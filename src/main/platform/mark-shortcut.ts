import { globalShortcut } from 'electron';
import type { RecorderEvent } from '../core/recording/recorder';
import type { IDisposable } from '../base/lifecycle';

/** Marks "this matters" from anywhere while recording: the journalist's eyes are on the speaker. */
export const MARK_SHORTCUT = 'CommandOrControl+Shift+M';

/**
 * Holds the global mark shortcut exactly while a recording runs (issue #23): registered when
 * the recorder starts, given back when it stops, so the key chord belongs to other apps the
 * rest of the time. A chord another app holds is said once in the log, not fatal.
 */
export class MarkShortcut implements IDisposable {
  private registered = false;
  private readonly following: IDisposable;

  constructor(
    recorder: {
      events: { subscribe(listener: (event: RecorderEvent) => void): IDisposable };
      mark(): unknown;
    },
    private readonly onRefused: (message: string) => void = () => undefined,
  ) {
    this.following = recorder.events.subscribe((event) => {
      if (event.type !== 'status') return;
      if (event.status.state === 'idle') this.release();
      else this.take(() => recorder.mark());
    });
  }

  private take(mark: () => unknown): void {
    if (this.registered) return;
    this.registered = globalShortcut.register(MARK_SHORTCUT, () => {
      try {
        mark();
      } catch (error) {
        this.onRefused(`the mark shortcut failed: ${(error as Error).message}`);
      }
    });
    if (!this.registered) this.onRefused(`${MARK_SHORTCUT} is taken by another app; mark with M in Verbatim`);
  }

  private release(): void {
    if (!this.registered) return;
    globalShortcut.unregister(MARK_SHORTCUT);
    this.registered = false;
  }

  dispose(): void {
    this.following.dispose();
    this.release();
  }
}
