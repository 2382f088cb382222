/** Where the end-to-end tests look for a browser, first VERBATIM_CHROMIUM (see chromium.mjs). */
export function chromiumCandidates(env: Record<string, string | undefined>): string[];

/** The first browser that is there, or undefined. */
export function findChromium(
  env: Record<string, string | undefined>,
  exists?: (path: string) => boolean,
): string | undefined;
