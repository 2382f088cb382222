import { describe, expect, it } from 'vitest';
import { createContext, runInContext } from 'node:vm';
import { reportLaunchWhenLoaded, type LaunchReport } from './launch-report';

/**
 * The page side runs for real in a VM context standing in for the renderer's window (the
 * bridge as the preload builds it: envelopes), so what the packaged app reports is what its
 * page saw. The Electron side is the webContents' two calls.
 */
function pageWith(api: unknown): (script: string) => Promise<unknown> {
  const context = createContext({
    window: { api },
    location: { href: 'file:///app/out/renderer/index.html' },
  });
  return (script) => Promise.resolve(runInContext(script, context) as unknown);
}

function launch(
  execute: (script: string) => Promise<unknown>,
): Promise<{ reports: LaunchReport[]; quits: number }> {
  let onLoad: (() => void) | undefined;
  const reports: LaunchReport[] = [];
  let quits = 0;
  return new Promise((resolve) => {
    reportLaunchWhenLoaded(
      {
        once: ((event: string, listener: () => void) => {
          expect(event).toBe('did-finish-load');
          onLoad = listener;
        }) as never,
        executeJavaScript: execute as never,
      },
      (report) => {
        reports.push(report);
        return Promise.resolve();
      },
      () => {
        quits++;
        resolve({ reports, quits });
      },
    );
    expect(reports).toEqual([]); // nothing before the page has loaded
    onLoad!();
  });
}

describe('the packaged app’s launch report', () => {
  it('reports the page, its bridge and a library answered over IPC, then quits', async () => {
    const api = { transcripts: { list: () => Promise.resolve({ ok: true, value: [{}, {}] }) } };
    const { reports, quits } = await launch(pageWith(api));
    expect(reports).toEqual([{ url: 'file:///app/out/renderer/index.html', bridge: true, library: 2 }]);
    expect(quits).toBe(1);
  });

  it('reports a missing bridge and an IPC error in words, so the launch check fails saying why', async () => {
    expect((await launch(pageWith(undefined))).reports).toEqual([
      { url: 'file:///app/out/renderer/index.html', bridge: false, library: 'no bridge' },
    ]);
    const failing = {
      transcripts: {
        list: () => Promise.resolve({ ok: false, error: { message: 'The library is locked.' } }),
      },
    };
    expect((await launch(pageWith(failing))).reports[0]?.library).toBe('The library is locked.');
  });

  it('still quits, with the reason, when the page cannot be asked at all', async () => {
    const { reports, quits } = await launch(() => Promise.reject(new Error('Script failed to execute')));
    expect(reports).toEqual([{ url: '', bridge: false, library: 'Script failed to execute' }]);
    expect(quits).toBe(1);
  });
});
