import { quoteCheckText } from '../../../shared/citation';
import type { QuoteCheck } from '../../../shared/quote-check';

/**
 * "Checked against the audio by ana on Nov 3, 2026", "… by you on …" or "Not checked against
 * the audio": a quote's check as the app's views say it, in the words its citations use.
 */
export function quoteCheckLabel(checked: QuoteCheck | null, timeZone?: string): string {
  const text = quoteCheckText(checked, { you: 'you', timeZone });
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
}
