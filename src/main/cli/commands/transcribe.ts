import { resolve } from 'node:path';
import type { JobRecord } from '../../core/library/library';
import { printResult } from '../cli-io';
import { defineCommand } from '../command';
import { requireTranscriptionKey } from '../environment';
import { followJobs, reportStoppedJobs } from '../library-session';
import { describeJob, publicJob } from '../job-lines';
import { UsageError } from '../usage-error';
import { contributionNotes } from './glossary';

/** `transcribe <file-or-url>...`: recordings to the service, stored in the library as the app stores them. */
export const transcribeCommand = defineCommand({
  name: 'transcribe',
  usage: ['<file-or-url>... [--options-json JSON] [--glossary NAME]... [--title T] [--wait] [--json]'],
  summary: 'Sends recordings (files on this computer or http(s) links) to be transcribed into the library.',
  options: {
    'options-json': {
      type: 'string',
      valueName: 'JSON',
      description: `the service's transcription options as a JSON object, such as '{"speaker_labels": true}'`,
    },
    glossary: {
      type: 'string',
      valueName: 'NAME',
      multiple: true,
      description:
        "a glossary whose spellings the service is given (else the glossaries used by default); see 'glossary list'",
    },
    title: { type: 'string', valueName: 'T', description: "the title in the library (else the file's name)" },
    wait: { type: 'boolean', description: 'stays until every job has finished (exit 1 if one failed)' },
    json: { type: 'boolean', description: 'prints the jobs as JSON' },
  },
  takesWords: true,
  async run({ values, positionals }, { io, openLibrary }) {
    const session = openLibrary({ showProgress: !values.json });
    if (positionals.length === 0) throw new UsageError('transcribe needs at least one file or URL');
    requireTranscriptionKey(io.env);
    const { glossaries } = session.core;
    const glossaryIds =
      values.glossary.length === 0
        ? undefined
        : await Promise.all(values.glossary.map(async (name) => (await glossaries.named(name)).id));
    const { options, contribution } = await glossaries.requestFor(
      parseServiceOptions(values['options-json']),
      {
        glossaryIds,
      },
    );
    const jobs: JobRecord[] = [];
    for (const source of positionals) {
      const isUrl = /^https?:\/\//i.test(source);
      if (!isUrl && /^[a-z][a-z0-9+.-]*:\/\//i.test(source)) {
        throw new UsageError(
          `"${source}" is not an address Verbatim can fetch: give an http:// or https:// link, or a file on this computer.`,
        );
      }
      jobs.push(
        await session.core.scheduler.submit({
          source: isUrl ? { kind: 'url', url: source } : { kind: 'file', path: resolve(source) },
          title: values.title,
          options,
          region: session.region,
        }),
      );
    }
    const ids = jobs.map((job) => job.id);
    await followJobs(session, io, ids, { wait: values.wait });
    // A job deleted meanwhile (`delete --remote` while it was being made) is no longer listed.
    const final = (await Promise.all(ids.map((id) => session.core.library.get(id)))).filter(
      (job): job is JobRecord => job !== undefined,
    );
    session.endProgress();
    // What the glossaries sent, and could not send, is said once a job holds them, never before
    // (a recording refused, a library that cannot be written) and never dropped silently
    // (stderr: stdout stays the jobs).
    if (contribution && final.length > 0)
      for (const line of contributionNotes(
        contribution,
        final.some((job) => job.remoteId !== null),
      ))
        io.err(`verbatim: ${line}\n`);
    printResult(io, values.json, final.map(publicJob), () => final.map(describeJob).join('\n'));
    const stopped = reportStoppedJobs(io, final);
    return stopped || final.some((job) => job.status === 'error') ? 1 : 0;
  },
});

function parseServiceOptions(json: string | undefined): Record<string, unknown> {
  if (json === undefined) return {};
  try {
    const value: unknown = JSON.parse(json);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('not an object');
    return value as Record<string, unknown>;
  } catch {
    throw new UsageError('--options-json must be a JSON object, for example \'{"speaker_labels": true}\'');
  }
}
