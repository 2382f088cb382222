/**
 * The notices working together raises (issue #36, point 4); the shape is shared with the
 * renderer (src/shared/collaboration-notice.ts). The kinds of shared work hand theirs to a sink
 * as they read what changed in the newsroom, never for the reporter's own doing.
 */
export type {
  CollaborationNotice,
  CollaborationNoticeKind,
  CollaborationNoticeTarget,
} from '../../../shared/collaboration-notice';
import type { CollaborationNotice } from '../../../shared/collaboration-notice';

/** Where the kinds of shared work hand their notices. */
export type CollaborationNoticeSink = (notice: CollaborationNotice) => void | Promise<void>;
