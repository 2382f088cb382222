import type { Locator } from '@playwright/test';

/** A failure as the page shows it, within some part of the page: its sentence and Copy details. */
export class UnexpectedErrorPanel {
  readonly alert: Locator;
  readonly copy: Locator;
  /** What Copy details answered ("Details copied."). */
  readonly copied: Locator;

  constructor(within: Locator) {
    this.alert = within.getByRole('alert');
    this.copy = within.getByRole('button', { name: 'Copy details' });
    this.copied = within.getByRole('status').filter({ hasText: /copied|copy them/i });
  }
}
