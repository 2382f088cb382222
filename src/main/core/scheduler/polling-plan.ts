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
}

export const defaultPollingPolicy: PollingPolicy = {
  processingShare: 0.2,
  minDelayMs: 3_000,
  maxDelayMs: 60_000,
  backoff: 1.5,
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

function clamp(value: number, min: number, max: number): number {
  return Math.round(Math.min(max, Math.max(min, value)));
}
