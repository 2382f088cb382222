/**
 * What working together tells a reporter (issue #36, point 4): a colleague's comment, an editor's
 * approval or request for a change, a new entry in a glossary of their desk, a change of theirs
 * that lost to a colleague's. The kinds of shared work raise them as they read what changed in
 * the newsroom (never for the reporter's own doing); the notices store keeps them until read,
 * and the app shows them in the window, with a badge, and as the system's notifications while
 * the window is elsewhere.
 */
export type CollaborationNoticeKind =
  | 'comment'
  | 'reply'
  | 'approval'
  | 'change-request'
  | 'resolved'
  | 'story-shared'
  | 'glossary-entry'
  | 'glossary-proposal'
  | 'glossary-conflict';

/** Where a notice leads when opened. */
export type CollaborationNoticeTarget =
  /** A shared story, by its key `<reporter>/<story id>`, at a quote (1-based) when it is about one. */
  | { kind: 'story'; storyKey: string; quote?: number }
  /** A glossary of this library, at an entry when it is about one. */
  | { kind: 'glossary'; glossaryId: number; term?: string };

export interface CollaborationNotice {
  kind: CollaborationNoticeKind;
  /** The newsroom login of the colleague who did it. */
  by: string;
  /** One sentence a journalist reads in the list and the system's notification. */
  text: string;
  target: CollaborationNoticeTarget;
  /**
   * What makes the notice unique, so that reading the same change twice (a second process, a
   * pull after a crash) raises it once: e.g. `comment:<uuid>`.
   */
  key: string;
  /** When it happened in the newsroom (ms since the epoch). */
  at: number;
}

/** Where the kinds of shared work hand their notices. */
export type CollaborationNoticeSink = (notice: CollaborationNotice) => void | Promise<void>;
