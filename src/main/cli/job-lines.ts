import type { JobRecord } from '../core/library/library';
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
