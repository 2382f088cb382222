import { createHash } from 'node:crypto';

/**
 * Ids (sessions, items, replies, tool calls, temporary tokens) derived from a fixed seed and a
 * counter, so every emulator run hands out the same ids in the same order. The admin reset
 * starts the sequence over.
 */
export class IdSequence {
  private counter = 0;

  next(prefix: 'sess' | 'item' | 'reply' | 'call' | 'tok'): string {
    this.counter += 1;
    const hex = createHash('sha256')
      .update(`verbatim-emulator/voice/${prefix}/${this.counter}`)
      .digest('hex');
    return `${prefix}_${hex.slice(0, 24)}`;
  }

  reset(): void {
    this.counter = 0;
  }
}
