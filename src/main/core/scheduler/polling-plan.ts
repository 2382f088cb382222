/**
 * When to look at a transcript again. The service needs roughly a fraction of the audio's
 * length to finish, so the first look waits for most of that, and later looks back off
 * geometrically up to a cap: long recordings cost a handful of requests, short ones finish
 * promptly. Without a known duration, start soon and back off.
 */
export interface PollingPolicy {
  /** Expected processing time as a share of the audio's duration. */
  processingShare: number;
  minDelayMs: number;
  maxDelayMs: number;
  backoff: number;
  /**
   * While the service says a transcript is still queued (waiting for a worker), its processing
   * has not begun and will take most of its expected share once it does: looks are spaced by
   * this share of the audio instead of backing off from the first look.
   */
  queuedShare: number;
}

export const defaultPollingPolicy: PollingPolicy = {
  processingShare: 0.2,
  minDelayMs: 3_000,
  maxDelayMs: 60_000,
  backoff: 1.5,
  queuedShare: 0.1,
};

export function firstCheckDelay(
  audioDurationMs: number | null | undefined,
  policy = defaultPollingPolicy,
): number {
  if (!audioDurationMs) return policy.minDelayMs;
  return clamp(audioDurationMs * policy.processingShare, policy.minDelayMs, 10 * 60_000);
}

/** Delay after the `checks`-th look found the transcript still unfinished. */
export function nextCheckDelay(
  checks: number,
  audioDurationMs: number | null | undefined,
  policy = defaultPollingPolicy,
): number {
  const base = audioDurationMs
    ? clamp(audioDurationMs * 0.02, policy.minDelayMs, policy.maxDelayMs)
    : policy.minDelayMs;
  return clamp(base * policy.backoff ** Math.max(0, checks - 1), policy.minDelayMs, policy.maxDelayMs);
}

/**
 * Delay after a look found the transcript still queued: a tenth of the audio's length (3 minutes
 * for a 30-minute recording), never less than the usual next look. The spec does not show the
 * status transitions; the real service documents `queued` as returned only when a job actually
 * waits (the account's concurrency or rate limit reached), transcripts otherwise going straight
 * to `processing` (AssemblyAI, "Transcript Status"). A queued transcript has all its processing
 * ahead of it, so a newsroom sending 200 recordings at once need not look at each queued one
 * every half minute: that cost 16 requests a job in the scheduler bench (issue #34).
 */
export function queuedCheckDelay(
  checks: number,
  audioDurationMs: number | null | undefined,
  policy = defaultPollingPolicy,
): number {
  const next = nextCheckDelay(checks, audioDurationMs, policy);
  if (!audioDurationMs) return next;
  return Math.max(next, clamp(audioDurationMs * policy.queuedShare, policy.minDelayMs, 10 * 60_000));
}

function clamp(value: number, min: number, max: number): number {
  return Math.round(Math.min(max, Math.max(min, value)));
}
