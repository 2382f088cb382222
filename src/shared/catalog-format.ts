/**
 * How catalog numbers read: prices per million tokens in dollars (the service sends dollars per
 * token as strings such as "0.000003"), token counts and ages in words. Shared by the CLI and the
 * renderer so both say the same thing.
 */

/** Dollars per million tokens, or null when the service sent no usable price. */
export function perMillion(perToken: string | undefined | null): number | null {
  if (perToken === undefined || perToken === null || perToken.trim() === '') return null;
  const value = Number(perToken);
  // OpenRouter marks a price decided at request time (router models) with "-1".
  if (!Number.isFinite(value) || value < 0) return null;
  return value * 1_000_000;
}

const dollars = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});
const smallDollars = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  maximumSignificantDigits: 2,
});

/** "$3.00", "$0.075", "Free", or "Unknown". */
export function formatPrice(dollarsPerMillion: number | null): string {
  if (dollarsPerMillion === null) return 'Unknown';
  // Per-token prices times a million carry binary noise ("0.0000001" → 0.09999999999999999),
  // which would read as "$0.1" beside "$0.10": round it away before choosing a format.
  const value = Number(dollarsPerMillion.toPrecision(12));
  if (value === 0) return 'Free';
  return value < 0.1 ? smallDollars.format(value) : dollars.format(value);
}

/** "$3.00 / M tokens" from a per-token string. */
export function formatPerMillion(perToken: string | undefined | null): string {
  return formatPricePerMillion(perMillion(perToken));
}

/** "$3.00 / M tokens" from dollars per million tokens. */
export function formatPricePerMillion(value: number | null): string {
  const text = formatPrice(value);
  return value === null || value === 0 ? text : `${text} / M tokens`;
}

const compact = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 });

/** "1M", "128K", "Unknown". */
export function formatTokens(tokens: number | null | undefined): string {
  return tokens === null || tokens === undefined ? 'Unknown' : compact.format(tokens);
}

/** "just now", "5 minutes ago", "3 hours ago", "2 days ago". */
export function formatAge(ms: number): string {
  const minutes = Math.floor(Math.max(0, ms) / 60_000);
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes} minute${minutes === 1 ? '' : 's'} ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} hour${hours === 1 ? '' : 's'} ago`;
  const days = Math.floor(hours / 24);
  return `${days} days ago`;
}
