import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { sha256Hex } from './seeded-random';

/**
 * The sound the engine hears in a recording. The real service transcodes any audio or video
 * container; the emulator decodes only WAV, so a video fixture (test/fixtures/soundtracks.json,
 * written by make-video-fixture.ts and keyed by the video's sha256) is heard as the committed WAV
 * its sound was encoded from. Every other file is heard as it is.
 */

const soundtrackSchema = z.record(
  z.string().regex(/^[0-9a-f]{64}$/),
  z.object({ file: z.string(), soundtrack: z.string().regex(/^[\w-]+\.wav$/) }),
);

const FIXTURES_URL = new URL('../../fixtures/', import.meta.url);

let soundtracks: z.infer<typeof soundtrackSchema> | undefined;

export function soundOf(bytes: Uint8Array): Uint8Array {
  soundtracks ??= soundtrackSchema.parse(
    JSON.parse(readFileSync(new URL('soundtracks.json', FIXTURES_URL), 'utf8')),
  );
  const known = soundtracks[sha256Hex(bytes)];
  return known ? new Uint8Array(readFileSync(new URL(known.soundtrack, FIXTURES_URL))) : bytes;
}
