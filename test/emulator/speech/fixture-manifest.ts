import { readFileSync } from 'node:fs';
import { z } from 'zod';

/**
 * test/fixtures/manifest.json: what was said in each committed fixture recording, keyed by the WAV's
 * sha256. The engine uses only the script (speaker, channel, text); startMs/endMs record where the
 * generator placed each turn, for tests to check the speech detection against.
 */

const turnSchema = z.object({
  speaker: z.string().regex(/^[A-Z]$/),
  channel: z.number().int().positive().optional(),
  text: z.string().min(1),
  startMs: z.number().int().nonnegative(),
  endMs: z.number().int().positive(),
});

const fixtureSchema = z.object({
  file: z.string(),
  title: z.string(),
  language: z.string(),
  channels: z.number().int().positive(),
  turns: z.array(turnSchema),
});

export type Fixture = z.infer<typeof fixtureSchema>;

const MANIFEST_URL = new URL('../../fixtures/manifest.json', import.meta.url);

let manifest: Record<string, Fixture> | undefined;

export function fixtureManifest(): Record<string, Fixture> {
  manifest ??= z.record(z.string(), fixtureSchema).parse(JSON.parse(readFileSync(MANIFEST_URL, 'utf8')));
  return manifest;
}

export function fixtureFor(sha256: string): Fixture | undefined {
  return fixtureManifest()[sha256];
}
