import type { TranscriptSummary } from '../../shared/library';
import type { JobRecord } from '../core/library/library';

/** What the renderer may see of a job: never its stored options or internal scheduling. */
export function toSummary(job: JobRecord): TranscriptSummary {
  const { options: _options, uploadUrl: _uploadUrl, nextCheckAt: _next, checks: _checks, ...summary } = job;
  return summary;
}
