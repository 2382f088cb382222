/**
 * How long Verbatim waits on a service before it says so (issue #32: a silent server once held
 * an upload for 30 minutes with no word). Every request ends within these bounds, whatever the
 * server does; README "How long Verbatim waits" lists them for users.
 */
export interface NetworkBounds {
  /** No byte either way for this long ends a request: the connection has gone quiet. */
  idleMs: number;
  /**
   * A quick call (a status, a list, a delete, the catalog) ends within this, its retries
   * included: a minute is as long as anyone waits at a prompt without wondering.
   */
  callMs: number;
  /**
   * A language model's answer, which it may think over in silence before the first byte: a
   * long answer from a slow model can take most of a minute, so a minute and a half.
   */
  answerMs: number;
  /**
   * An upload's whole bound is `callMs` plus its size sent at this rate: 64 KiB/s is a weak
   * mobile link, so a connection that works is never cut, and one that barely works is.
   */
  uploadBytesPerSecond: number;
}

export const defaultNetworkBounds: NetworkBounds = {
  idleMs: 30_000,
  callMs: 60_000,
  answerMs: 90_000,
  uploadBytesPerSecond: 64 * 1024,
};

/**
 * The bounds stretched (a slow satellite link: 4) or shrunk (tests against a silent server:
 * 0.05) by one factor: VERBATIM_TIMEOUT_SCALE on the command line.
 */
export function scaledNetworkBounds(scale: number): NetworkBounds {
  return {
    idleMs: defaultNetworkBounds.idleMs * scale,
    callMs: defaultNetworkBounds.callMs * scale,
    answerMs: defaultNetworkBounds.answerMs * scale,
    uploadBytesPerSecond: defaultNetworkBounds.uploadBytesPerSecond / scale,
  };
}

/** How long an upload of `bytes` may take in all, its answer included. */
export function uploadBoundMs(bounds: NetworkBounds, bytes: number): number {
  return bounds.callMs + (bytes / bounds.uploadBytesPerSecond) * 1000;
}

/** "30 s", "1.5 s": a bound as a message says it. */
export function inSeconds(ms: number): string {
  const seconds = ms / 1000;
  return `${seconds >= 10 ? Math.round(seconds) : Math.round(seconds * 10) / 10} s`;
}
