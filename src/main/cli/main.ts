import { runCli } from './run-cli';

/** `npm run cli -- …`: the command line on this process's own streams and environment. */

const code = await runCli(process.argv.slice(2), {
  out: (text) => process.stdout.write(`${text}\n`),
  write: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  isTty: Boolean(process.stderr.isTTY),
  env: process.env,
});
await exitWhenWritten(code);

/**
 * Exits once everything printed has reached its reader. A pipe takes output asynchronously:
 * process.exit() right after a large write cut it at 64 KiB (`catalog models --json | jq`).
 */
async function exitWhenWritten(exitCode: number): Promise<never> {
  process.exitCode = exitCode;
  await Promise.all(
    [process.stdout, process.stderr].map(
      (stream) => new Promise<void>((resolveFlushed) => stream.write('', () => resolveFlushed())),
    ),
  );
  process.exit(exitCode);
}
