import { createHash } from 'node:crypto';
import type { Region } from '../types';

/**
 * Ids look like the real service's (UUIDs) but are derived from the emulator's id seed and a
 * counter, so runs with the same seed hand out the same ids in the same order. The region is
 * part of the hash so a US and an EU transcript never share an id.
 */
export function deterministicUuid(
  seed: string,
  kind: 'transcript' | 'upload',
  region: Region,
  counter: number,
): string {
  const hex = createHash('sha256')
    .update(`verbatim-emulator/transcription/${seed}/${kind}/${region}/${counter}`)
    .digest('hex');
  // Shape it as a version-4 UUID (version nibble 4, variant bits 10xx) so strict parsers accept it.
  const variant = ((parseInt(hex.slice(16, 17), 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
