import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * ALSA's `file` plugin as the default sound card, for a `record` run as a real child process:
 * its input is the raw PCM in `sound` (read as whatever rate and channels are asked for, faster
 * than real time, and repeated past its end), its output a file nobody reads. Answers the
 * ALSA_CONFIG_PATH to give the child.
 */
export function alsaFileInput(dir: string, sound: Buffer): string {
  const input = join(dir, 'input.raw');
  writeFileSync(input, sound);
  const config = join(dir, 'asound.conf');
  writeFileSync(
    config,
    `pcm.!default { type file; slave.pcm { type null } file "${join(dir, 'out.raw')}"; infile "${input}"; format "raw" }\n`,
  );
  return config;
}
