import { spawn } from 'node:child_process';
import { resolve } from 'node:path';

/** What a finished command line run left: its exit code and both streams, whole. */
export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `npm run cli -- <args>` as a user does: a real child process whose output is piped,
 * with the given environment on top of this one (undefined removes a variable).
 */
export function runCliProcess(args: string[], env: Record<string, string | undefined>): Promise<CliRun> {
  const merged: NodeJS.ProcessEnv = { ...process.env };
  for (const [key, value] of Object.entries(env)) {
    if (value === undefined) delete merged[key];
    else merged[key] = value;
  }
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', resolve(import.meta.dirname, 'main.ts'), ...args],
    {
      env: merged,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolveRun, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolveRun({ code, stdout, stderr }));
  });
}
