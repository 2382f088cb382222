import { spawn } from 'node:child_process';
import { resolve } from 'node:path';

/** The emulator's default key (test/emulator/server.ts). */
export const emulatorKey = 'emulator-key';

/**
 * The service emulator in a process of its own, as the real services are: run inside the
 * benchmark's process it would compete with the app for the same event loop and CPU time, and
 * its work would be counted as the app's.
 */
export async function startEmulatorProcess(options: {
  dataDir: string;
  speed?: number;
}): Promise<{ url: string; stop: () => void }> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      resolve(import.meta.dirname, '../test/emulator/cli.ts'),
      '--port',
      '0',
      '--data',
      options.dataDir,
      '--speed',
      String(options.speed ?? 1),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const url = await new Promise<string>((resolveUrl, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      const match = /listening on (\S+)/.exec(chunk.toString());
      if (match?.[1]) resolveUrl(match[1]);
    });
    child.on('exit', () => reject(new Error('the emulator did not start')));
  });
  return { url, stop: () => child.kill('SIGTERM') };
}
