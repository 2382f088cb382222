import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { VerbatimError } from '../../shared/errors';
import { regionSchema, type Region } from '../../shared/library';
import { createCore, type Core } from '../core/app-core';
import { isLibraryWriteFailure } from '../core/scheduler/scheduler';
import { acceleratedClock, systemClock } from '../core/clock';
import type { JobRecord } from '../core/library/library';
import { exportCliOptions, exportUsage, runExportCommand } from './commands/export';
import { UsageError } from './usage-error';
import type { CliIo } from './cli-io';
import { serviceAddressProblem } from '../../shared/web-address';
import { inCommandLineTerms } from './command-line-wording';
import { catalogUsage, runCatalogCommand } from './commands/catalog';
import { askUsage, runAskCommand } from './commands/ask';
import { runVoiceCli, voiceUsage } from './commands/voice';

/**
 * Verbatim without a window: the same core as the app, driven from a terminal or a script.
 * Exit codes: 0 success, 1 a job ended in error, 2 bad usage or input.
 */

const usage = `Usage: npm run cli -- <command> [options]

  transcribe <file-or-url>... [--options-json JSON] [--title T] [--wait] [--json]
  jobs [--json]
  resume [--wait] [--json]
  retry <id> [--wait] [--json]
  show <id> [--json]
  search <query> [--json] [--limit N]
  delete <id> [--remote]
  ${exportUsage}
${catalogUsage}
${askUsage}
${voiceUsage}

Environment: VERBATIM_DATA_DIR, VERBATIM_API_KEY, VERBATIM_REGION (us|eu), VERBATIM_TRANSCRIPTION_URL,
VERBATIM_TIME_SCALE (runs the scheduler's clock faster, to pair with the emulator's --speed),
VERBATIM_CATALOG_KEY, VERBATIM_MANAGEMENT_KEY, VERBATIM_CATALOG_URL,
VERBATIM_GATEWAY_URL (the language-model gateway for ask), VERBATIM_VOICE_URL (the voice agent)`;

export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === 'help' || command === '--help') {
    io.out(usage);
    return command ? 0 : 2;
  }
  let core: Core | undefined;
  const dataDir = io.env.VERBATIM_DATA_DIR ?? join(homedir(), '.verbatim');
  // A library write that fails (disk full, folder read-only) ends the run with a word and exit 1;
  // the scheduler keeps the job where it was, so `resume` finishes it once there is room.
  let failStorage: (error: VerbatimError) => void = () => undefined;
  const storageFailed = new Promise<never>((_, reject) => (failStorage = reject));
  storageFailed.catch(() => undefined);
  const untilStorageFails = <T>(work: Promise<T>): Promise<T> => Promise.race([work, storageFailed]);
  try {
    checkServiceAddresses(io.env);
    if (command === 'catalog') return await runCatalogCommand(rest, io);
    if (command === 'voice') return await runVoiceCli(rest, io);
    const { values, positionals } = parseArgs({
      args: rest,
      allowPositionals: true,
      strict: true,
      options: {
        json: { type: 'boolean', default: false },
        wait: { type: 'boolean', default: false },
        remote: { type: 'boolean', default: false },
        'options-json': { type: 'string' },
        title: { type: 'string' },
        limit: { type: 'string' },
        ...exportCliOptions,
        // ask's own options (cli-ask.ts reads them).
        model: { type: 'string' },
        'json-schema': { type: 'string' },
        stream: { type: 'boolean', default: false },
      },
    });
    const region = parseRegion(io.env.VERBATIM_REGION);
    const progress = io.isTty && !values.json ? (text: string) => io.err(`\r\x1b[2K${text}`) : undefined;
    const timeScale = io.env.VERBATIM_TIME_SCALE ? Number(io.env.VERBATIM_TIME_SCALE) : 1;
    if (!(timeScale > 0)) throw new UsageError('VERBATIM_TIME_SCALE must be a positive number');
    core = createCore({
      dataDir,
      processDescription: 'a Verbatim command line',
      // A library busy for a moment (another process writing) is waited out, not reported.
      onStorageFailure: (_id, message) => {
        if (!/locked|busy/i.test(message)) failStorage(libraryWriteError(dataDir, message));
      },
      clock: timeScale === 1 ? systemClock : acceleratedClock(timeScale),
      apiKey: () => io.env.VERBATIM_API_KEY,
      transcriptionUrl: () => io.env.VERBATIM_TRANSCRIPTION_URL,
      onJob: progress ? (job) => progress(describeJob(job)) : undefined,
      onUploadProgress: progress
        ? (_id, sent, total) => progress(`uploading ${Math.round((sent / total) * 100)}%`)
        : undefined,
    });
    const print = (value: unknown, human: () => string): void =>
      io.out(values.json ? JSON.stringify(value, null, 2) : human());

    switch (command) {
      case 'transcribe': {
        if (positionals.length === 0) throw new UsageError('transcribe needs at least one file or URL');
        requireKey(io.env);
        const options = parseOptions(values['options-json']);
        const jobs: JobRecord[] = [];
        for (const source of positionals) {
          const isUrl = /^https?:\/\//i.test(source);
          if (!isUrl && /^[a-z][a-z0-9+.-]*:\/\//i.test(source)) {
            throw new UsageError(
              `"${source}" is not an address Verbatim can fetch: give an http:// or https:// link, or a file on this computer.`,
            );
          }
          jobs.push(
            await core.scheduler.submit({
              source: isUrl ? { kind: 'url', url: source } : { kind: 'file', path: resolve(source) },
              title: values.title,
              options,
              region,
            }),
          );
        }
        const ids = jobs.map((job) => job.id);
        if (values.wait)
          await untilStorageFails(core.scheduler.settled(ids, () => io.err(waitingForOwner(core!))));
        else if (core.ownership.owned) await untilStorageFails(waitUntilSubmitted(core, ids));
        else io.err(waitingForOwner(core, false));
        const final = await Promise.all(ids.map(async (id) => (await core!.library.get(id))!));
        if (progress) io.err('\n');
        print(final.map(publicJob), () => final.map(describeJob).join('\n'));
        return final.some((job) => job.status === 'error') ? 1 : 0;
      }
      case 'jobs': {
        const jobs = await core.library.list();
        print(jobs.map(publicJob), () =>
          jobs.length ? jobs.map(describeJob).join('\n') : 'No transcripts yet.',
        );
        return 0;
      }
      case 'resume': {
        requireKey(io.env);
        const unfinished = (await core.library.unfinishedJobs()).map((job) => job.id);
        const count = await core.scheduler.resumeAll();
        if (values.wait)
          await untilStorageFails(core.scheduler.settled(unfinished, () => io.err(waitingForOwner(core!))));
        else if (!core.ownership.owned) io.err(waitingForOwner(core, false));
        const jobs = await core.library.list();
        if (progress) io.err('\n');
        print(
          jobs.map(publicJob),
          () => `${count} unfinished job(s) resumed.\n${jobs.map(describeJob).join('\n')}`,
        );
        return values.wait && jobs.some((job) => job.status === 'error') ? 1 : 0;
      }
      case 'retry': {
        const id = single(positionals, 'retry needs a transcript id');
        requireKey(io.env);
        const job = await core.library.get(id);
        if (!job) throw new VerbatimError('not_found', `No transcript with id ${id}.`);
        if (job.status !== 'error' && job.status !== 'cancelled') {
          throw new UsageError(
            `"${job.title}" has not failed (it is ${job.status}); there is nothing to retry. "resume" picks up unfinished jobs.`,
          );
        }
        // A job the service already made is fetched again, never created twice.
        await core.scheduler.retry(id);
        if (values.wait)
          await untilStorageFails(core.scheduler.settled([id], () => io.err(waitingForOwner(core!))));
        else if (core.ownership.owned) await untilStorageFails(waitUntilSubmitted(core, [id]));
        else io.err(waitingForOwner(core, false));
        const retried = (await core.library.get(id))!;
        if (progress) io.err('\n');
        print(publicJob(retried), () => describeJob(retried));
        return retried.status === 'error' ? 1 : 0;
      }
      case 'show': {
        const id = single(positionals, 'show needs a transcript id');
        const job = await core.library.get(id);
        if (!job) throw new VerbatimError('not_found', `No transcript with id ${id}.`);
        const sentences = await core.library.sentences(id);
        const names = new Map(job.speakers.map((speaker) => [speaker.label, speaker.name ?? speaker.label]));
        print({ ...publicJob(job), sentences }, () =>
          [
            describeJob(job),
            '',
            ...sentences.map(
              (s) =>
                `[${timestamp(s.startMs)}] ${speakerPrefix(s.speaker ? (names.get(s.speaker) ?? s.speaker) : null)}${s.text}`,
            ),
          ].join('\n'),
        );
        return 0;
      }
      case 'search': {
        const query = positionals.join(' ');
        if (!query.trim()) throw new UsageError('search needs words to look for');
        const limit = values.limit === undefined ? 20 : Number(values.limit);
        if (!Number.isInteger(limit) || limit < 1 || limit > 200)
          throw new UsageError('--limit must be a whole number from 1 to 200');
        const page = await core.library.search(query, {}, { limit });
        print(page, () =>
          page.hits.length === 0
            ? 'Nothing found.'
            : page.hits
                .map(
                  (hit) =>
                    `${hit.transcriptTitle} [${timestamp(hit.startMs)}] ${speakerPrefix(hit.speakerName ?? hit.speaker)}${hit.snippet.map((p) => (p.match ? `**${p.text}**` : p.text)).join('')}`,
                )
                .join('\n'),
        );
        return 0;
      }
      case 'delete': {
        const id = single(positionals, 'delete needs a transcript id');
        const job = await core.library.get(id);
        if (!job) throw new VerbatimError('not_found', `No transcript with id ${id}.`);
        if (values.remote && job.remoteId) {
          requireKey(io.env);
          await core.clientFor(job.region).delete(job.remoteId);
        }
        await core.library.delete(id);
        print(
          { deleted: id, remote: values.remote && job.remoteId !== null },
          () => `Deleted "${job.title}"${values.remote && job.remoteId ? ' here and on the service' : ''}.`,
        );
        return 0;
      }
      case 'export':
        return await runExportCommand(core, positionals, values, io);
      case 'ask':
        return await runAskCommand(rest, core, {
          out: io.out,
          write: io.write ?? io.out,
          env: io.env,
        });
      default:
        throw new UsageError(`unknown command "${command}"`);
    }
  } catch (error) {
    if (error instanceof TypeError && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS')) {
      // Node's parser explains itself to programmers; say which option, and show this command's usage.
      const option = /'(-[^']+)'/.exec(error.message)?.[1];
      const problem =
        error.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && option
          ? `unknown option ${option} for ${command}`
          : error.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && option
            ? `${option} needs a value`
            : `${command} does not take ${option ?? 'that'}`;
      io.err(`verbatim: ${problem}\n\n${usageOf(command)}\n`);
      return 2;
    }
    if (error instanceof UsageError) {
      io.err(`verbatim: ${error.message}\n\n${usageOf(command)}\n`);
      return 2;
    }
    if (isLibraryWriteFailure(error)) {
      io.err(`verbatim: ${libraryWriteError(dataDir, (error as Error).message).message}\n`);
      return 1;
    }
    if (error instanceof VerbatimError) {
      io.err(`verbatim: ${inCommandLineTerms(error.message)}`);
      return badInput(error) ? 2 : 1;
    }
    throw error;
  } finally {
    await core?.close();
  }
}

function parseRegion(value: string | undefined): Region {
  if (value === undefined || value === '') return 'us';
  const parsed = regionSchema.safeParse(value.toLowerCase());
  if (!parsed.success) throw new UsageError(`VERBATIM_REGION must be us or eu, not "${value}"`);
  return parsed.data;
}

function parseOptions(json: string | undefined): Record<string, unknown> {
  if (json === undefined) return {};
  try {
    const value: unknown = JSON.parse(json);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('not an object');
    return value as Record<string, unknown>;
  } catch {
    throw new UsageError('--options-json must be a JSON object, for example \'{"speaker_labels": true}\'');
  }
}

/** The service addresses a run is given, checked as Settings checks them, before any is used. */
function checkServiceAddresses(env: NodeJS.ProcessEnv): void {
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

/** What a journalist reads when the library could not be written, and what to do about it. */
function libraryWriteError(dataDir: string, message: string): VerbatimError {
  const cause = /full/i.test(message)
    ? 'the disk is full'
    : /readonly|read-only/i.test(message)
      ? 'the library cannot be written to'
      : message;
  return new VerbatimError(
    'storage',
    `Could not save to the library in ${dataDir}: ${cause}. Nothing is lost: the service keeps the work. Free some space (or make the folder writable), then run "npm run cli -- resume".`,
  );
}

function requireKey(env: NodeJS.ProcessEnv): void {
  if (!env.VERBATIM_API_KEY)
    throw new VerbatimError('unauthorized', 'Set VERBATIM_API_KEY to your transcription service key.');
}

function single(positionals: string[], message: string): string {
  if (positionals.length !== 1 || !positionals[0]) throw new UsageError(message);
  return positionals[0];
}

async function waitUntilSubmitted(core: Core, ids: string[]): Promise<void> {
  for (;;) {
    const jobs = await Promise.all(ids.map((id) => core.library.get(id)));
    if (jobs.every((job) => job && job.status !== 'uploading' && job.status !== 'submitting')) return;
    await new Promise((resolveWait) => setTimeout(resolveWait, 100));
  }
}

/** Another process on this data folder sends its jobs: say who, and what happens now. */
function waitingForOwner(core: Core, waiting = true): string {
  const owner = core.ownership.ownerDescription() ?? 'another Verbatim';
  return waiting
    ? `verbatim: ${owner} is sending this folder's jobs; waiting for it to finish them…\n`
    : `verbatim: ${owner} is sending this folder's jobs; it will send these too.\n`;
}

/** "Mayor Elena Alvarez: " before a line, or nothing when the service named no speaker. */
function speakerPrefix(speaker: string | null | undefined): string {
  return speaker ? `${speaker}: ` : '';
}

function publicJob(job: JobRecord) {
  const { options: _options, ...rest } = job;
  return rest;
}

/**
 * Exit code 2 is for what the person running the command can fix in the command: a wrong or
 * missing value, a key not set, a file already there, an export folder that does not exist.
 */
function badInput(error: VerbatimError): boolean {
  if (['invalid_input', 'not_found', 'unauthorized', 'conflict'].includes(error.code)) return true;
  const cause = (error.details as { code?: unknown } | undefined)?.code;
  return error.code === 'storage' && (cause === 'ENOENT' || cause === 'ENOTDIR' || cause === 'EISDIR');
}

/** One command's lines of the usage, for a mistake in that command. */
function usageOf(command: string): string {
  const lines = usage.split('\n');
  const start = lines.findIndex(
    (line) => line.trimStart().startsWith(`${command} `) || line.trim() === command,
  );
  if (start < 0) return usage;
  const own = [lines[start]!];
  for (const line of lines.slice(start + 1)) {
    if (!/^\s{5,}/.test(line)) break; // continuation lines are indented further
    own.push(line);
  }
  return `Usage: npm run cli -- ${own.map((line) => line.trim()).join('\n         ')}`;
}

function describeJob(job: JobRecord): string {
  const status = job.status === 'error' ? `error: ${inCommandLineTerms(job.error ?? '')}` : job.status;
  return `${job.id}  ${job.title}  ${status}`;
}

function timestamp(ms: number): string {
  const total = Math.floor(ms / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  return `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}`;
}
