import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { resolve } from 'node:path';

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
