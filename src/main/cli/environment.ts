import { homedir } from 'node:os';
import { join } from 'node:path';
import { VerbatimError } from '../../shared/errors';
import { regionSchema, type Region } from '../../shared/library';
import { serviceAddressProblem } from '../../shared/web-address';
import { scaledNetworkBounds, type NetworkBounds } from '../core/http/network-bounds';
import { parseNewsroomAddress, type NewsroomAccess } from '../core/newsroom/newsroom-address';
import { UsageError } from './usage-error';

/** The command line's settings come from the environment: each variable is read and checked here. */

/** What the overall help says about the environment. */
export const environmentHelp = `Environment: VERBATIM_DATA_DIR, VERBATIM_API_KEY, VERBATIM_REGION (us|eu), VERBATIM_TRANSCRIPTION_URL,
VERBATIM_TIME_SCALE (runs the scheduler's clock faster, to pair with the emulator's --speed),
VERBATIM_TIMEOUT_SCALE (stretches or shrinks how long a silent service is waited for: 2 doubles it),
VERBATIM_CATALOG_KEY, VERBATIM_MANAGEMENT_KEY, VERBATIM_CATALOG_URL,
VERBATIM_GATEWAY_URL (the language-model gateway for ask), VERBATIM_VOICE_URL (the voice agent),
VERBATIM_NEWSROOM_URL (postgres://user@host:port/database) and VERBATIM_NEWSROOM_PASSWORD (the newsroom commands)`;

/** The data folder: VERBATIM_DATA_DIR, else ~/.verbatim as in the app. */
export function dataFolderOf(env: NodeJS.ProcessEnv): string {
  return env.VERBATIM_DATA_DIR ?? join(homedir(), '.verbatim');
}

/** Where new jobs are sent: VERBATIM_REGION, us unless it says eu. */
export function regionOf(env: NodeJS.ProcessEnv): Region {
  const value = env.VERBATIM_REGION;
  if (value === undefined || value === '') return 'us';
  const parsed = regionSchema.safeParse(value.toLowerCase());
  if (!parsed.success) throw new UsageError(`VERBATIM_REGION must be us or eu, not "${value}"`);
  return parsed.data;
}

/**
 * How many bytes of audio go to the newsroom in one chunk (VERBATIM_NEWSROOM_AUDIO_CHUNK_BYTES,
 * 1 MiB unless set): the tests make it small so an upload has many chunks to be killed between.
 */
export function newsroomAudioChunkBytesOf(env: NodeJS.ProcessEnv): number | undefined {
  const text = env.VERBATIM_NEWSROOM_AUDIO_CHUNK_BYTES;
  if (text === undefined || text === '') return undefined;
  const bytes = Number(text);
  if (!Number.isInteger(bytes) || bytes < 1024 || bytes > 64 * 1024 * 1024)
    throw new UsageError(
      'VERBATIM_NEWSROOM_AUDIO_CHUNK_BYTES must be a whole number of bytes from 1024 to 67108864',
    );
  return bytes;
}

/** How much faster than real time the scheduler's clock runs (VERBATIM_TIME_SCALE, 1 unless set). */
export function timeScaleOf(env: NodeJS.ProcessEnv): number {
  const scale = env.VERBATIM_TIME_SCALE ? Number(env.VERBATIM_TIME_SCALE) : 1;
  if (!(scale > 0)) throw new UsageError('VERBATIM_TIME_SCALE must be a positive number');
  return scale;
}

/**
 * How long a silent service is waited for: the bounds of network-bounds.ts times
 * VERBATIM_TIMEOUT_SCALE (1 unless set; 3 on a slow satellite link, 0.05 in tests).
 */
export function networkBoundsOf(env: NodeJS.ProcessEnv): NetworkBounds {
  const scale = env.VERBATIM_TIMEOUT_SCALE ? Number(env.VERBATIM_TIMEOUT_SCALE) : 1;
  if (!(scale > 0)) throw new UsageError('VERBATIM_TIMEOUT_SCALE must be a positive number');
  return scaledNetworkBounds(scale);
}

/** The transcription service's key, which transcribing, asking and talking to the agent need. */
export function requireTranscriptionKey(env: NodeJS.ProcessEnv): string {
  if (!env.VERBATIM_API_KEY)
    throw new VerbatimError('unauthorized', 'Set VERBATIM_API_KEY to your transcription service key.');
  return env.VERBATIM_API_KEY;
}

/** The service addresses a run is given, checked as Settings checks them, before any is used. */
export function checkServiceAddresses(env: NodeJS.ProcessEnv): void {
  const addresses: [string, readonly string[]][] = [
    ['VERBATIM_TRANSCRIPTION_URL', ['https:', 'http:']],
    ['VERBATIM_CATALOG_URL', ['https:', 'http:']],
    ['VERBATIM_GATEWAY_URL', ['https:', 'http:']],
    ['VERBATIM_VOICE_URL', ['https:', 'http:', 'wss:', 'ws:']],
  ];
  for (const [variable, schemes] of addresses) {
    const value = env[variable];
    if (!value) continue;
    const problem = serviceAddressProblem(value, schemes);
    if (problem)
      throw new UsageError(
        `${variable}: ${problem.replace('keys are set in Settings', 'keys have their own variables')}`,
      );
  }
}

/**
 * The newsroom to connect to: VERBATIM_NEWSROOM_URL (`postgres://user@host:port/database`,
 * never holding the password) and VERBATIM_NEWSROOM_PASSWORD.
 */
export function newsroomAccessOf(env: NodeJS.ProcessEnv): NewsroomAccess {
  const url = env.VERBATIM_NEWSROOM_URL;
  if (!url)
    throw new VerbatimError(
      'invalid_input',
      "Set VERBATIM_NEWSROOM_URL to your newsroom's address, such as postgres://reporter@db.example.org:5432/verbatim.",
    );
  const address = parseNewsroomAddress(url, 'VERBATIM_NEWSROOM_URL');
  const password = env.VERBATIM_NEWSROOM_PASSWORD;
  if (!password)
    throw new VerbatimError(
      'unauthorized',
      `Set VERBATIM_NEWSROOM_PASSWORD to the newsroom password of ${address.user}.`,
    );
  return { address, password };
}
