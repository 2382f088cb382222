import type { UpgradeProgress } from '../library/upgrade-plan';
import { describeTimeLeft } from '../library/upgrade-plan';
import { staticPagePolicy } from './content-security-policy';

/**
 * The page of the window shown while a library is upgraded at start (platform/upgrade-window.ts):
 * what is happening, a determinate bar and the time left. No script: the window loads the page
 * again with each step, as a data URL under a policy that runs nothing.
 */
export interface UpgradeScreen {
  /** Where the upgrade stands; none while another Verbatim upgrades the library and this one waits. */
  progress?: UpgradeProgress;
  /** The journalist tried to close the window. */
  closeAsked: boolean;
}

/** How far along, 0 to 100: the time spent over the time spent and left. */
export function percentDone({ elapsedMs, estimatedRemainingMs }: UpgradeProgress): number {
  const total = elapsedMs + estimatedRemainingMs;
  return total === 0 ? 0 : Math.min(99, Math.round((elapsedMs / total) * 100));
}

/** Said when the journalist tries to close the window: nothing is abandoned. */
export const upgradeContinues =
  'The upgrade continues: stopping it half-way would leave the library unreadable. Verbatim opens as soon as it is done.';

export function upgradePage({ progress, closeAsked }: UpgradeScreen): string {
  const body = `${
    progress
      ? progressBody(progress)
      : '<h1>Updating your library</h1>\n<p>Another Verbatim is upgrading the library; waiting for it to finish.</p>'
  }${closeAsked ? `\n<p role="status">${upgradeContinues}</p>` : ''}`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${staticPagePolicy()}">
<title>Updating your library</title>
<style>
body { font: 14px system-ui, sans-serif; margin: 24px; background: #1b1d22; color: #e8e8ea; }
h1 { font-size: 16px; margin: 0 0 12px; }
.bar { height: 8px; border-radius: 4px; background: #3a3d45; overflow: hidden; margin: 12px 0 8px; }
.bar > div { height: 100%; background: #6ea8fe; }
.note { color: #b9bcc4; }
</style></head><body>${body}</body></html>`;
}

function progressBody(progress: UpgradeProgress): string {
  const percent = percentDone(progress);
  const stepText = `Step ${progress.step} of ${progress.steps}`;
  return `<h1>Updating your library for this version of Verbatim</h1>
<p>${escapeHtml(progress.label)}…</p>
<div class="bar" role="progressbar" aria-label="Library upgrade" aria-valuemin="0" aria-valuemax="100" aria-valuenow="${percent}" aria-valuetext="${stepText}, ${percent}%"><div style="width: ${percent}%"></div></div>
<p class="note">${stepText}, ${describeTimeLeft(progress.estimatedRemainingMs)}.</p>`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

/** The page as a URL a window can load. */
export function upgradePageUrl(screen: UpgradeScreen): string {
  return `data:text/html;charset=utf-8,${encodeURIComponent(upgradePage(screen))}`;
}
