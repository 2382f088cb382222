import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { resolve } from 'node:path';
import type { Readable } from 'node:stream';

/** What a finished command line run left: its exit code (null when a signal ended it) and both streams, whole. */
export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The file `npm run cli` starts. */
export const cliEntry = resolve(import.meta.dirname, 'main.ts');

/** The words that start the command line as `npm run cli -- <args>` does, for spawn or a shell. */
export function cliCommandLine(args: string[]): [string, ...string[]] {
  return [process.execPath, '--import', 'tsx', cliEntry, ...args];
}

/** This process's environment with `env` on top; a variable set to undefined is removed. */
export function environmentWith(env: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const merged: NodeJS.ProcessEnv = { ...process.env };
  for (const [key, value] of Object.entries(env)) {
    if (value === undefined) delete merged[key];
    else merged[key] = value;
  }
  return merged;
}

/** A started run: the child (to kill it mid-way) and what it left once it ended. */
export interface StartedCliProcess {
  child: ChildProcessByStdio<null, Readable, Readable>;
  finished: Promise<CliRun>;
}

/** Starts a TypeScript program (through tsx) as a real child process whose output is piped. */
export function startTypeScriptProcess(
  script: string,
  args: string[],
  env: Record<string, string | undefined>,
): StartedCliProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    env: environmentWith(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const finished = new Promise<CliRun>((resolveRun, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolveRun({ code, stdout, stderr }));
  });
  return { child, finished };
}

/** Starts `npm run cli -- <args>` as a user does, with the given environment on top of this one. */
export function startCliProcess(args: string[], env: Record<string, string | undefined>): StartedCliProcess {
  return startTypeScriptProcess(cliEntry, args, env);
}

/**
 * Runs `npm run cli -- <args>` as a user does: a real child process whose output is piped,
 * with the given environment on top of this one (undefined removes a variable).
 */
export function runCliProcess(args: string[], env: Record<string, string | undefined>): Promise<CliRun> {
  return startCliProcess(args, env).finished;
}
