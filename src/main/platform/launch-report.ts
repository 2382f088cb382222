import type { WebContents } from 'electron';

/**
 * The packaged app cannot be driven by Playwright: its fuses turn off the --inspect and
 * --remote-debugging switches Playwright connects through. So `npm test`'s launch of the
 * packaged app (scripts/run-electron-smoke.mjs) names a file in VERBATIM_LAUNCH_REPORT, and
 * the app, once its page has loaded, writes there what the page sees (its address, whether
 * the preload's bridge is there, what the library answered through it), then quits.
 */
export interface LaunchReport {
  url: string;
  bridge: boolean;
  /** How many transcripts transcripts.list answered through IPC, or the error it gave. */
  library: number | string;
}

/** Asked inside the page: the same bridge and IPC round trip the renderer's own code uses. */
const inPage = `(async () => {
  const bridge = typeof window.api === 'object' && window.api !== null;
  let library = 'no bridge';
  if (bridge) {
    try {
      const listed = await window.api.transcripts.list({});
      library = listed.ok ? listed.value.length : listed.error.message;
    } catch (error) {
      library = String(error && error.message ? error.message : error);
    }
  }
  return { url: location.href, bridge, library };
})()`;

export function reportLaunchWhenLoaded(
  webContents: Pick<WebContents, 'once' | 'executeJavaScript'>,
  write: (report: LaunchReport) => Promise<void>,
  quit: () => void,
): void {
  webContents.once('did-finish-load', () => {
    void webContents
      .executeJavaScript(inPage)
      .then((report: LaunchReport) => write(report))
      .catch((error: unknown) =>
        write({ url: '', bridge: false, library: error instanceof Error ? error.message : String(error) }),
      )
      .finally(quit);
  });
}
