import { disposableTimeout, toDisposable, type IDisposable } from './lifecycle';

/**
 * An orderly quit, after VS Code's `onWillShutdown` and `join()`: whatever holds work that a quit
 * must not cut (a recording's file, typing not yet stored, an upload) registers how it closes,
 * and the process awaits them all, each phase for a bounded time, before it exits.
 *
 * Phases run in order, the owners of one phase together: the work first (the pages store their
 * typing over the connections still open), then the connections to the pages, then the library,
 * which the others write to. An owner that does not finish in time is named in the log and left
 * behind: the quit never hangs on it.
 */
export type ShutdownPhase = 'work' | 'connections' | 'library';
const phaseOrder: readonly ShutdownPhase[] = ['work', 'connections', 'library'];

export interface ShutdownLog {
  warn(message: string): void;
  error(message: string, error: unknown): void;
}

/** Who did not finish: cut at the bound, or failed (the failure is logged). */
export interface ShutdownReport {
  unfinished: string[];
  failed: string[];
}

interface Owner {
  name: string;
  close: () => Promise<unknown>;
}

export class Shutdown {
  private readonly owners = new Map<ShutdownPhase, Set<Owner>>(phaseOrder.map((phase) => [phase, new Set()]));
  private running: Promise<ShutdownReport> | undefined;

  constructor(private readonly log: ShutdownLog) {}

  /** Whether the shutdown has begun: new work should not start. */
  get started(): boolean {
    return this.running !== undefined;
  }

  /** `close` runs once when the process shuts down, with its phase; disposing forgets it. */
  onWillShutdown(name: string, close: () => Promise<unknown>, phase: ShutdownPhase = 'work'): IDisposable {
    const owner: Owner = { name, close };
    const owners = this.owners.get(phase)!;
    owners.add(owner);
    return toDisposable(() => owners.delete(owner));
  }

  /** Work already under way (a publish) that the quit waits for; forgotten once it settles. */
  join(work: Promise<unknown>, name: string): void {
    const joined = this.onWillShutdown(name, () => work);
    const forget = (): void => joined.dispose();
    work.then(forget, forget);
  }

  /**
   * Closes every owner, phase by phase, each phase awaited at most `timeoutMs`. Never rejects:
   * a failure is logged with its owner's name. A second call answers the first one's promise.
   */
  shutdown(timeoutMs: number): Promise<ShutdownReport> {
    this.running ??= this.run(timeoutMs);
    return this.running;
  }

  private async run(timeoutMs: number): Promise<ShutdownReport> {
    const report: ShutdownReport = { unfinished: [], failed: [] };
    for (const phase of phaseOrder) {
      const owners = [...this.owners.get(phase)!];
      const pending = new Set(owners);
      const closing = owners.map(async (owner) => {
        try {
          await owner.close();
        } catch (error) {
          report.failed.push(owner.name);
          this.log.error(`${owner.name} did not close cleanly`, error);
        } finally {
          pending.delete(owner);
        }
      });
      let timer: IDisposable | undefined;
      const bound = new Promise<void>((resolve) => (timer = disposableTimeout(resolve, timeoutMs)));
      await Promise.race([Promise.all(closing), bound]);
      timer?.dispose();
      for (const { name } of pending) {
        report.unfinished.push(name);
        this.log.warn(
          `${name} did not finish within ${timeoutMs} ms of the quit; Verbatim closed without it`,
        );
      }
    }
    return report;
  }
}
