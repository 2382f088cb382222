import type { Clock } from '../types';
import type { IdSequence } from './ids';

/**
 * Temporary tokens of GET /v1/token: each opens one WebSocket, and only within its redemption
 * window, measured on the emulator clock (so --speed shortens it too).
 */
export class TemporaryTokens {
  /** Token → expiry, in emulator-clock milliseconds. */
  private readonly expiries = new Map<string, number>();

  constructor(
    private readonly clock: Clock,
    private readonly ids: IdSequence,
  ) {}

  issue(expiresInSeconds: number): string {
    const now = this.clock.now();
    for (const [token, expiry] of this.expiries) if (expiry <= now) this.expiries.delete(token);
    const token = this.ids.next('tok');
    this.expiries.set(token, now + expiresInSeconds * 1000);
    return token;
  }

  /** Spends the token; true if it was issued, unused and unexpired. */
  redeem(token: string): boolean {
    const expiry = this.expiries.get(token);
    this.expiries.delete(token);
    return expiry !== undefined && expiry > this.clock.now();
  }

  clear(): void {
    this.expiries.clear();
  }
}
