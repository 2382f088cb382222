import { createHash } from 'node:crypto';
import { VerbatimError } from '../../../shared/errors';
import { newsroomCopyReadOnly, type Segment } from '../../../shared/library';
import { paragraphAt } from '../../../shared/quote-check';
import type { Db } from './database';
import type { JobStore } from './job-store';
import { statement } from './statement-cache';
import type { SegmentInput, TranscriptContent } from './transcript-content';

/**
 * Read-only copies of colleagues' transcripts kept from the newsroom (issue #35, point 6;
 * migration 019). A copy is an ordinary completed transcript of the library, so the reader,
 * search, highlights, stories and exports work on it as on any other, with its origin beside it.
 * Synchronous; the Library facade makes it async and refreshes the copy's highlights.
 */

/** Where a copy comes from, as the library keeps it. */
export interface StoredNewsroomOrigin {
  reporter: string;
  transcriptId: string;
  desk: string;
  revision: number;
  keptAt: number;
  /** The checksum of the recording downloaded with it, or null when it came without one. */
  audioSha256: string | null;
}

/** A published revision of a colleague's transcript, as the copy takes it from the archive. */
export interface NewsroomCopyContent {
  reporter: string;
  transcriptId: string;
  desk: string;
  revision: number;
  title: string;
  recordedAt: number;
  languageCode: string | null;
  durationMs: number | null;
  speakers: { label: string; name: string | null }[];
  sentences: Pick<Segment, 'startMs' | 'endMs' | 'speaker' | 'text' | 'words'>[];
  /**
   * The colleague's paragraphs' time spans, which their stamps number; null for a revision
   * published before they travelled (the copy's paragraphs are then its speakers' turns).
   */
  paragraphs: { startMs: number; endMs: number }[] | null;
  /** The paragraphs the colleague checked against the audio: when, and by whom (a newsroom login). */
  checks: { paragraph: number; checkedAt: number; checkedBy: string }[];
  /** The downloaded recording, or null when the colleague published without it. */
  audio: { path: string; sha256: string } | null;
}

/** What keeping did: a new copy, an older copy brought to this revision, or nothing (it had it). */
export type KeepOutcome = 'created' | 'updated' | 'unchanged';

/**
 * The library id of the copy of a colleague's transcript: the same on every keep, so keeping it
 * again finds it, and never a UUID as the reporter's own transcripts have.
 */
export function newsroomCopyId(reporter: string, transcriptId: string): string {
  const digest = createHash('sha256').update(`${reporter}\u0000${transcriptId}`).digest('hex');
  return `newsroom-${digest.slice(0, 32)}`;
}

/** What every change a copy refuses says, naming the change. */
export function readOnlyCopyError(change: string): VerbatimError {
  return new VerbatimError(
    'forbidden',
    `${newsroomCopyReadOnly}: ${change} stays with the reporter who recorded it. You can play it, highlight it, quote it and add it to your stories.`,
  );
}

export class NewsroomCopyStore {
  constructor(
    private readonly db: Db,
    private readonly jobs: JobStore,
    private readonly content: TranscriptContent,
    private readonly now: () => number,
  ) {}

  origin(id: string): StoredNewsroomOrigin | undefined {
    const row = statement(
      this.db,
      `SELECT newsroom_reporter AS reporter, newsroom_transcript_id AS transcriptId, newsroom_desk AS desk,
              newsroom_revision AS revision, newsroom_kept_at AS keptAt, newsroom_audio_sha256 AS audioSha256
         FROM transcripts WHERE id = ? AND newsroom_reporter IS NOT NULL`,
    ).get(id) as StoredNewsroomOrigin | undefined;
    return row;
  }

  /** Refuses `change` on a copy kept from the newsroom; the reporter's own transcripts pass. */
  requireOwn(id: string, change: string): void {
    if (this.origin(id)) throw readOnlyCopyError(change);
  }

  /**
   * Stores the copy, or brings it to a newer revision: its words, timings, speakers and their
   * names, title, date, language, paragraphs and review stamps become the archive's, and its
   * recording the one given. The
   * caller runs it in a transaction and refreshes the copy's highlights (they are time spans, so
   * they keep their times and take the new revision's words). The same revision or an older one
   * changes nothing. The audio path it replaced is returned, for the caller to delete.
   */
  keep(copy: NewsroomCopyContent): { id: string; outcome: KeepOutcome; replacedAudioPath: string | null } {
    const id = newsroomCopyId(copy.reporter, copy.transcriptId);
    const existing = this.origin(id);
    if (existing && existing.revision >= copy.revision)
      return { id, outcome: 'unchanged', replacedAudioPath: null };
    const at = this.now();
    const previousAudio = existing ? (this.jobs.require(id).audioPath ?? null) : null;
    const fields = {
      id,
      title: copy.title.trim() || `${copy.reporter}/${copy.transcriptId}`,
      source: `newsroom:${copy.reporter}/${copy.transcriptId}`,
      audioPath: copy.audio?.path ?? null,
      recordedAt: copy.recordedAt,
      at,
      reporter: copy.reporter,
      transcriptId: copy.transcriptId,
      desk: copy.desk,
      revision: copy.revision,
      audioSha256: copy.audio?.sha256 ?? null,
    };
    if (existing)
      statement(
        this.db,
        `UPDATE transcripts SET title = @title, audio_path = @audioPath, created_at = @recordedAt, updated_at = @at,
           newsroom_desk = @desk, newsroom_revision = @revision, newsroom_kept_at = @at,
           newsroom_audio_sha256 = @audioSha256
         WHERE id = @id`,
      ).run(fields);
    else
      // The recording date is the library's "recorded" date (created_at), as for a transcript of one's own.
      statement(
        this.db,
        `INSERT INTO transcripts (id, region, title, source_kind, source, audio_path, status, options_json,
           created_at, updated_at, newsroom_reporter, newsroom_transcript_id, newsroom_desk, newsroom_revision,
           newsroom_kept_at, newsroom_audio_sha256)
         VALUES (@id, 'us', @title, 'url', @source, @audioPath, 'completed', '{}', @recordedAt, @at, @reporter,
           @transcriptId, @desk, @revision, @at, @audioSha256)`,
      ).run(fields);
    const sentences: SegmentInput[] = copy.sentences.map((sentence) => ({
      text: sentence.text,
      start: sentence.startMs,
      end: sentence.endMs,
      speaker: sentence.speaker,
      confidence: null,
      words: sentence.words,
    }));
    statement(this.db, 'DELETE FROM speakers WHERE transcript_id = ?').run(id);
    this.content.save(id, {
      transcript: {
        text: copy.sentences.map((sentence) => sentence.text).join(' '),
        language_code: copy.languageCode,
        audio_duration: copy.durationMs === null ? null : copy.durationMs / 1000,
      },
      sentences,
      paragraphs: copy.paragraphs ? paragraphsOf(sentences, copy.paragraphs) : turnsOf(sentences),
    });
    this.replaceChecks(id, copy);
    // The names the colleague gave their speakers; a label they did not name keeps its placeholder.
    const name = statement(
      this.db,
      'INSERT INTO speakers (transcript_id, label, name) VALUES (?, ?, ?) ON CONFLICT (transcript_id, label) DO UPDATE SET name = excluded.name',
    );
    for (const speaker of copy.speakers)
      if (speaker.name?.trim()) name.run(id, speaker.label, speaker.name.trim());
    return {
      id,
      outcome: existing ? 'updated' : 'created',
      replacedAudioPath: previousAudio !== null && previousAudio !== fields.audioPath ? previousAudio : null,
    };
  }

  /**
   * The copy's review stamps become the revision's: the colleague's, with their login as who
   * checked. A stamp the copy cannot place (a revision published without its paragraphs, or a
   * paragraph it does not have) is not taken: shown on other words, it would vouch for them.
   */
  private replaceChecks(id: string, copy: NewsroomCopyContent): void {
    statement(this.db, 'DELETE FROM paragraph_checks WHERE transcript_id = ?').run(id);
    if (!copy.paragraphs) return;
    const stamp = statement(
      this.db,
      'INSERT OR REPLACE INTO paragraph_checks (transcript_id, paragraph, checked_at, checked_by) VALUES (?, ?, ?, ?)',
    );
    for (const check of copy.checks)
      if (check.paragraph < copy.paragraphs.length)
        stamp.run(id, check.paragraph, check.checkedAt, check.checkedBy);
  }
}

/**
 * The colleague's paragraphs, numbered as theirs: each span holds the sentences that start in
 * it (a sentence belongs to the last paragraph that starts at or before it, as the review pass
 * reads it), so their stamp on paragraph N covers the same words here. A paragraph whose words
 * the colleague deleted stays, empty, so the ones after it keep their numbers.
 */
function paragraphsOf(
  sentences: readonly SegmentInput[],
  spans: readonly { startMs: number; endMs: number }[],
): SegmentInput[] {
  const paragraphs: SegmentInput[] = spans.map((span) => ({
    text: '',
    start: span.startMs,
    end: span.endMs,
    speaker: null,
    confidence: null,
    words: [],
  }));
  const starts = spans.map((span) => ({ startMs: span.startMs }));
  for (const sentence of sentences) {
    // Words before the first paragraph (none a service makes) read with the first.
    const paragraph = paragraphs[Math.max(0, paragraphAt(starts, sentence.start))];
    if (!paragraph) continue;
    paragraph.text = paragraph.text ? `${paragraph.text} ${sentence.text}` : sentence.text;
    paragraph.speaker ??= sentence.speaker ?? null;
    paragraph.words = [...(paragraph.words ?? []), ...(sentence.words ?? [])];
  }
  return paragraphs;
}

/**
 * The archive holds sentences only: the copy's paragraphs are its turns, each run of sentences
 * by one speaker, as the reader groups them.
 */
function turnsOf(sentences: readonly SegmentInput[]): SegmentInput[] {
  const turns: SegmentInput[] = [];
  let current: SegmentInput | undefined;
  for (const sentence of sentences) {
    if (current && current.speaker === sentence.speaker) {
      current.text = `${current.text} ${sentence.text}`;
      current.end = sentence.end;
      current.words = [...(current.words ?? []), ...(sentence.words ?? [])];
    } else {
      current = { ...sentence, words: [...(sentence.words ?? [])] };
      turns.push(current);
    }
  }
  return turns;
}
