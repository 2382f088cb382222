import { views, type ViewId } from '../lib/sidebar-views';

export interface Route {
  view: ViewId;
  /** The open transcript, for the transcript view. */
  transcriptId?: string;
  /** Where to cue the recording, in milliseconds (a search hit's start). */
  atMs?: number;
  /** Who published the newsroom transcript open read only (with `transcriptId`). */
  reporter?: string;
  /** The Settings section to show ("newsroom"), for a link from where that setting is missing. */
  section?: string;
  /** The shared story open in the Stories view for review (`ana/3`). */
  reviewKey?: string;
  /** The quote of `reviewKey` to show, counting from 1 (a notice about it). */
  quote?: number;
}

/**
 * "#/library", "#/transcript/<id>", "#/transcript/<id>?t=83000", "#/settings/newsroom",
 * "#/stories/review/ana/3?quote=2".
 */
export function parseRoute(hash: string): Route {
  const [path = '', query = ''] = hash.replace(/^#\/?/, '').split('?');
  const [head, ...rest] = path.split('/');
  const t = Number(/(?:^|&)t=(\d+)/.exec(query)?.[1]);
  if (head === 'newsroom' && rest[0] && rest[1]) {
    return {
      view: 'newsroom-transcript',
      reporter: decodeURIComponent(rest[0]),
      transcriptId: decodeURIComponent(rest[1]),
      ...(Number.isFinite(t) && t > 0 ? { atMs: t } : {}),
    };
  }
  if (head === 'transcript' && rest[0]) {
    return {
      view: 'transcript',
      transcriptId: decodeURIComponent(rest[0]),
      ...(Number.isFinite(t) && t > 0 ? { atMs: t } : {}),
    };
  }
  if (head === 'stories' && rest[0] === 'review' && rest[1] && rest[2]) {
    const quote = Number(/(?:^|&)quote=(\d+)/.exec(query)?.[1]);
    return {
      view: 'stories',
      reviewKey: `${decodeURIComponent(rest[1])}/${decodeURIComponent(rest[2])}`,
      ...(Number.isInteger(quote) && quote > 0 ? { quote } : {}),
    };
  }
  if (head === 'settings' && rest[0]) return { view: 'settings', section: decodeURIComponent(rest[0]) };
  return { view: views.find((view) => view.id === head)?.id ?? 'library' };
}

export function routeHash(route: Route): string {
  if (route.view === 'newsroom-transcript' && route.reporter && route.transcriptId) {
    return `#/newsroom/${encodeURIComponent(route.reporter)}/${encodeURIComponent(route.transcriptId)}${route.atMs ? `?t=${Math.round(route.atMs)}` : ''}`;
  }
  if (route.view === 'transcript' && route.transcriptId) {
    return `#/transcript/${encodeURIComponent(route.transcriptId)}${route.atMs ? `?t=${Math.round(route.atMs)}` : ''}`;
  }
  if (route.view === 'stories' && route.reviewKey) {
    const [reporter = '', storyId = ''] = route.reviewKey.split('/');
    return `#/stories/review/${encodeURIComponent(reporter)}/${encodeURIComponent(storyId)}${route.quote ? `?quote=${route.quote}` : ''}`;
  }
  if (route.view === 'settings' && route.section) return `#/settings/${encodeURIComponent(route.section)}`;
  return `#/${route.view}`;
}

/** The current view lives in the URL hash so a reload comes back to the same place. */
class Navigation {
  route = $state<Route>(parseRoute(window.location.hash));
  current = $derived<ViewId>(this.route.view);

  constructor() {
    window.addEventListener('hashchange', () => {
      this.route = parseRoute(window.location.hash);
    });
  }

  go(view: Exclude<ViewId, 'transcript' | 'newsroom-transcript'>): void {
    this.navigate({ view });
  }

  /** Opens Settings at one section, its first field focused. */
  openSettings(section: string): void {
    this.navigate({ view: 'settings', section });
  }

  /** Opens a transcript, optionally cued at a moment (in milliseconds). */
  openTranscript(transcriptId: string, atMs?: number): void {
    this.navigate({ view: 'transcript', transcriptId, ...(atMs !== undefined ? { atMs } : {}) });
  }

  /** Opens a colleague's published transcript, read only, cued at a moment. */
  openNewsroomTranscript(reporter: string, transcriptId: string, atMs?: number): void {
    this.navigate({
      view: 'newsroom-transcript',
      reporter,
      transcriptId,
      ...(atMs !== undefined ? { atMs } : {}),
    });
  }

  /** Opens a shared story for review in the Stories view, at one of its quotes (from 1). */
  openReview(key: string, quote?: number): void {
    this.navigate({ view: 'stories', reviewKey: key, ...(quote !== undefined ? { quote } : {}) });
  }

  private navigate(route: Route): void {
    const hash = routeHash(route);
    if (window.location.hash !== hash) window.location.hash = hash;
    this.route = route;
  }
}

export const navigation = new Navigation();
