import type { NewsroomDesks, NewsroomPublication } from '../../../shared/ipc/newsroom-contract';
import { api } from '../lib/api';
import { problem, type Problem } from '../lib/error-message';
import { caught } from '../lib/report-problem';

/** How a transcript's publication reads in the reader's header and on a library row. */
export interface PublicationStatus {
  tone: 'waiting' | 'published' | 'failed';
  text: string;
  /** What of the audio asked for goes without it, and why ("… published without its recording: …"). */
  audioNote?: string;
}

/** The end of a sentence without its full stop, to go inside another. */
function clause(text: string): string {
  return text.trim().replace(/\.$/, '');
}

/**
 * A publication as the reporter reads it: waiting, published at a revision, or failed and why.
 * Nothing for a transcript that is local only, never published or taken out of the archive.
 */
export function publicationStatus(
  publication: NewsroomPublication | undefined,
): PublicationStatus | undefined {
  switch (publication?.state) {
    case undefined:
    case 'unpublished':
      return undefined;
    case 'waiting':
      return withAudioNote({ tone: 'waiting', text: 'Waiting to publish' }, publication.audioNote);
    case 'unpublishing':
      return { tone: 'waiting', text: 'Waiting to unpublish' };
    case 'published':
      return withAudioNote(
        { tone: 'published', text: `Published · rev ${publication.revisionPublished}` },
        publication.audioNote,
      );
    case 'failed':
      return { tone: 'failed', text: `Failed: ${clause(publication.error ?? 'the newsroom refused it')}` };
  }
}

/** A publish's note on its audio goes with it while it waits and once it is published. */
function withAudioNote(status: PublicationStatus, audioNote: string | null): PublicationStatus {
  return audioNote ? { ...status, audioNote } : status;
}

/**
 * Each transcript's publication state (issue #35, point 5), as the library's rows and the reader
 * show it: loaded for the transcripts in view and kept live by `newsroom.publicationChanged`.
 */
export class NewsroomPublications {
  byId = $state<Record<string, NewsroomPublication>>({});
  problem = $state<Problem | undefined>(undefined);

  /** Follows every change main reports; returns the unsubscribe. */
  listen(): () => void {
    return api.on('newsroom.publicationChanged', (publication) => this.keep(publication));
  }

  async load(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    try {
      for (const publication of await api.newsroom.publications({ ids: [...ids] })) this.keep(publication);
    } catch (error) {
      this.problem = caught(error, 'newsroom.publications');
    }
  }

  status(id: string): PublicationStatus | undefined {
    return publicationStatus(this.byId[id]);
  }

  /** Sends the same publication again, as the next revision, to the desk it went to. */
  async retry(id: string): Promise<void> {
    const publication = this.byId[id];
    if (!publication) return;
    this.problem = await this.publish(
      [id],
      publication.desk,
      publication.confidential,
      publication.withAudio,
    );
  }

  /** Queues the transcripts for the desk: what went wrong, or undefined when every one was queued. */
  async publish(
    ids: readonly string[],
    desk: string,
    confidential: boolean,
    withAudio = false,
  ): Promise<Problem | undefined> {
    try {
      const answer = await api.newsroom.publish({ ids: [...ids], desk, confidential, withAudio });
      for (const publication of answer.publications) this.keep(publication);
      if (answer.refused.length === 0) return undefined;
      return problem(answer.refused.map((refusal) => refusal.message).join(' '));
    } catch (error) {
      return caught(error, 'newsroom.publish');
    }
  }

  async unpublish(id: string): Promise<void> {
    this.problem = undefined;
    try {
      this.keep(await api.newsroom.unpublish({ id }));
    } catch (error) {
      this.problem = caught(error, 'newsroom.unpublish');
    }
  }

  private keep(publication: NewsroomPublication): void {
    const known = this.byId[publication.transcriptId];
    // An event may arrive before the answer that queued it: the newer state stays.
    if (known && known.updatedAt > publication.updatedAt) return;
    this.byId[publication.transcriptId] = publication;
  }
}

/** The app's one record of publication states, shared by the library and the reader. */
export const newsroomPublications = new NewsroomPublications();

/**
 * The "Publish to newsroom…" dialog: the reporter's desks as the newsroom lists them, or, when
 * it cannot be asked (offline, nothing set), the desk used last to publish to anyway: it waits
 * in the library and is sent when the newsroom answers.
 */
export class PublishDialogState {
  desks = $state<NewsroomDesks | undefined>(undefined);
  desk = $state('');
  confidential = $state(false);
  /** The whole recording too (each highlight's clip goes in any case). */
  withAudio = $state(false);
  loading = $state(true);
  busy = $state(false);
  problem = $state<Problem | undefined>(undefined);

  constructor(
    readonly ids: readonly string[],
    private readonly publications: NewsroomPublications = newsroomPublications,
  ) {}

  /** No desk listed: the reporter types the desk (offered the one used last). */
  get typed(): boolean {
    return (this.desks?.desks.length ?? 0) === 0;
  }

  async load(): Promise<void> {
    this.loading = true;
    try {
      const desks = await api.newsroom.desks();
      this.desks = desks;
      const listed = desks.desks.map((each) => each.desk);
      const earlier = this.ids.length === 1 ? this.publications.byId[this.ids[0] ?? '']?.desk : undefined;
      const preferred = [earlier, desks.lastDesk].find(
        (desk): desk is string => !!desk && (listed.length === 0 || listed.includes(desk)),
      );
      this.desk = preferred ?? listed[0] ?? '';
      if (this.ids.length === 1) {
        const earlierPublication = this.publications.byId[this.ids[0] ?? ''];
        this.confidential = earlierPublication?.confidential ?? false;
        this.withAudio = earlierPublication?.withAudio ?? false;
      }
    } catch (error) {
      this.problem = caught(error, 'newsroom.desks');
    } finally {
      this.loading = false;
    }
  }

  /** Publishes; true when every transcript was queued (the dialog then closes). */
  async publish(): Promise<boolean> {
    if (this.desk.trim() === '') {
      this.problem = problem('Choose the desk to publish to.');
      return false;
    }
    this.busy = true;
    this.problem = undefined;
    try {
      this.problem = await this.publications.publish(
        this.ids,
        this.desk.trim(),
        this.confidential,
        this.withAudio,
      );
      return this.problem === undefined;
    } finally {
      this.busy = false;
    }
  }
}
