/** See packaged-launch.mjs. */
export function packagedExecutable(
  outDir: string,
  platform: NodeJS.Platform,
  arch: string,
  names: { name: string; productName: string },
): string;

export function launchProblem(
  report: { url: string; bridge: boolean; library: number | string } | undefined,
): string | undefined;
