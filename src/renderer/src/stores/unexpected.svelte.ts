import type { Problem } from '../lib/error-message';
import { caught } from '../lib/report-problem';

/**
 * Failures nothing caught: an error thrown in an event handler or a promise nobody awaited.
 * They are reported like the ones the stores catch (plain words, Copy details, the app's log)
 * and shown in one place, so none is swallowed.
 */
class UnexpectedErrors {
  current = $state<Problem | undefined>(undefined);

  report(error: unknown, context: string): void {
    this.current = caught(error, context);
  }

  dismiss(): void {
    this.current = undefined;
  }

  /** Listens on the window; returns the function that stops listening. */
  listen(target: Window): () => void {
    const onError = (event: ErrorEvent): void => {
      // The browser's note that a resize observer (the virtual lists') skipped a frame is no fault.
      if (event.message.includes('ResizeObserver loop')) return;
      this.report(event.error ?? event.message, 'an uncaught error in the window');
    };
    const onRejection = (event: PromiseRejectionEvent): void => {
      this.report(event.reason, 'a failure nothing waited for');
    };
    target.addEventListener('error', onError);
    target.addEventListener('unhandledrejection', onRejection);
    return () => {
      target.removeEventListener('error', onError);
      target.removeEventListener('unhandledrejection', onRejection);
    };
  }
}

export const unexpected = new UnexpectedErrors();
