import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { AllowConsole } from './fixtures';
import { spokenPcm } from '../fixtures/spoken-pcm';

/**
 * The web host as a process of its own (`npm run start:web`), for the tests that SIGKILL it:
 * crash safety is proven on a real process, never on a host closed politely. Answers the
 * address it serves.
 */
export async function startHostProcess(
  dataDir: string,
  env: Record<string, string>,
): Promise<{ child: ChildProcessWithoutNullStreams; url: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', resolve('src/web-host/start.ts')], {
    env: { ...process.env, ...env, VERBATIM_DATA_DIR: dataDir, VERBATIM_WEB_PORT: '0' },
  });
  const url = await new Promise<string>((resolveUrl, reject) => {
    let output = '';
    child.stdout.on('data', (data: Buffer) => {
      output += data.toString();
      const found = /running in your browser at (\S+)/.exec(output);
      if (found) resolveUrl(found[1]!);
    });
    child.stderr.on('data', (data: Buffer) => (output += data.toString()));
    child.once('exit', (code) => reject(new Error(`the web host ended (${code}) before serving: ${output}`)));
  });
  return { child, url };
}

export function exited(child: ChildProcessWithoutNullStreams): Promise<NodeJS.Signals | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.signalCode);
  return new Promise((resolveExit) => child.once('exit', (_code, signal) => resolveExit(signal)));
}

/** Stops what a test left running (politely: the test is over). */
export async function stopAll(children: readonly ChildProcessWithoutNullStreams[]): Promise<void> {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await exited(child);
    }
  }
}

/**
 * What Chromium logs itself when a test stops or kills the host under an open page: the
 * bridge's refused WebSocket as it reconnects, and the recording's media request cut short.
 */
export function allowHostGoingAway(allowConsole: AllowConsole): void {
  allowConsole(/^console error: WebSocket connection to .* failed: .*ERR_CONNECTION_REFUSED/);
  allowConsole(
    /^console error: Failed to load resource: net::ERR_(CONTENT_LENGTH_MISMATCH|CONNECTION_REFUSED|CONNECTION_RESET|EMPTY_RESPONSE) \(.*\/__verbatim\/media\//,
  );
}

/**
 * A host process's environment for recording without a sound card: 12 seconds of speech at
 * 16 kHz in `dataDir`, read as the microphone. Answers the environment and the speech written.
 */
export function recordingHostEnv(
  dataDir: string,
  service: { key: string; url: string },
): { env: Record<string, string>; speech: Buffer } {
  const input = join(dataDir, 'input.raw');
  const speech = spokenPcm(12, 16_000);
  writeFileSync(input, speech);
  return {
    env: {
      VERBATIM_API_KEY: service.key,
      VERBATIM_TRANSCRIPTION_URL: service.url,
      VERBATIM_RECORD_INPUT: input,
      VERBATIM_RECORD_INPUT_RATE: '16000',
    },
    speech,
  };
}
