import type { JobRecord, Library } from '../core/library/library';
import type { CliIo } from './cli-io';
import { inCommandLineTerms } from './command-line-wording';

/** How jobs, times and speakers read on the command line, the same in every command. */

/** "<id>  <title>  <status>", with the reason when the job failed. */
export function describeJob(job: JobRecord): string {
  const status = job.status === 'error' ? `error: ${inCommandLineTerms(job.error ?? '')}` : job.status;
  return `${job.id}  ${job.title}  ${status}`;
}

/** A job as --json prints it: without the service options it was sent with. */
export function publicJob(job: JobRecord) {
  const { options: _options, ...rest } = job;
  return rest;
}

/** Jobs read from the library this many at a time while they are printed: memory stays flat. */
const jobsPerPage = 500;

/**
 * Every job of the library, newest first, printed a page at a time as `jobs` shows them (a
 * line each, or `empty` when there is none, if given) or with --json as one JSON array, the very text
 * JSON.stringify(jobs, null, 2) would give, however many thousands there are.
 */
export async function printAllJobs(
  io: CliIo,
  library: Library,
  { json, empty }: { json: boolean; empty?: string },
): Promise<void> {
  let page = await library.list({ limit: jobsPerPage });
  if (page.length === 0) {
    if (json) io.out('[]');
    else if (empty !== undefined) io.out(empty);
    return;
  }
  if (json) io.out('[');
  while (page.length > 0) {
    const last = page[page.length - 1]!;
    // The next page is read first: the last job of this one needs its comma only if one follows.
    const next =
      page.length < jobsPerPage
        ? []
        : await library.list({ limit: jobsPerPage, after: { createdAt: last.createdAt, id: last.id } });
    if (json) {
      const items = page.map((job) => JSON.stringify(publicJob(job), null, 2).replace(/^/gm, '  '));
      io.out(`${items.join(',\n')}${next.length > 0 ? ',' : ''}`);
    } else io.out(page.map(describeJob).join('\n'));
    page = next;
  }
  if (json) io.out(']');
}

/** "Mayor Elena Alvarez: " before a line, or nothing when the service named no speaker. */
export function speakerPrefix(speaker: string | null | undefined): string {
  return speaker ? `${speaker}: ` : '';
}

/** A moment of the recording as hh:mm:ss. */
export function timestamp(ms: number): string {
  const total = Math.floor(ms / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  return `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}`;
}
