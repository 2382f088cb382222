import { inWriteTransaction, type Db } from './database';
import { VerbatimError } from '../../../shared/errors';
import type { Word } from '../../../shared/library';
import { selectWords } from '../../../shared/time-range-words';
import {
  newHighlightSchema,
  quoteFiltersSchema,
  type Highlight,
  type HighlightColor,
  type HighlightLabel,
  type NewHighlight,
  type Quote,
  type QuoteFacets,
  type QuoteFilters,
  type QuotePage,
} from '../../../shared/highlights';
import { toFtsQuery } from './fts-query';
import { checksOfQuotes } from './quote-checks';
import type { JobStore } from './job-store';
import { countCap } from './transcript-search';
import { flag, rowMapping, value } from './row-mapping';
import { statement } from './statement-cache';

const highlightFields = {
  id: value<number>('id'),
  transcriptId: value<string>('transcript_id'),
  startMs: value<number>('start_ms'),
  endMs: value<number>('end_ms'),
  labelId: value<number>('label_id'),
  note: value<string>('note'),
  createdAt: value<number>('created_at'),
  text: value<string>('words_text'),
  speaker: value<string | null>('speaker'),
  /** The name the reporter gave the speaker; the label stands in for it below. */
  speakerName: value<string | null>('speaker_name'),
  missing: flag('missing'),
};
const highlightRow = rowMapping(highlightFields);
const quoteRow = rowMapping({
  ...highlightFields,
  transcriptTitle: value<string>('transcript_title'),
  recordedAt: value<number>('recorded_at'),
  languageCode: value<string | null>('language_code'),
  labelName: value<string>('label_name'),
  labelColor: value<HighlightColor>('label_color'),
  recordedByReporter: value<string | null>('newsroom_reporter'),
  recordedByDesk: value<string | null>('newsroom_desk'),
});

/** The words a span covers, and the span snapped to them. */
export interface CoveredWords {
  words: Word[];
  text: string;
  speaker: string | null;
  startMs: number;
  endMs: number;
}

/**
 * The words of `sentences` a span covers, by the one rule of time-range-words: each word more
 * than half inside it, so a span dragged from the middle of a word takes the word only if most
 * of it was spoken in the span, and a span from a printed time never starts with the word
 * before. The span is snapped to the words (see selectWords), so the rule finds the same words
 * in it again. `sentences` are those around the span. Pure, so the rule is tested on its own.
 */
export function wordsInSpan(
  sentences: readonly { speaker: string | null; words: readonly Word[] }[],
  startMs: number,
  endMs: number,
): CoveredWords | null {
  const spoken = sentences.flatMap((sentence) =>
    sentence.words.map((word) => ({ ...word, speaker: word.speaker ?? sentence.speaker })),
  );
  const selected = selectWords(spoken, { startMs, endMs });
  if (!selected) return null;
  const { words, span } = selected;
  return {
    words,
    text: words.map((word) => word.text).join(' '),
    speaker: words[0]?.speaker ?? null,
    ...span,
  };
}

const highlightColumns = `h.id, h.transcript_id, h.start_ms, h.end_ms, h.label_id, h.note, h.words_text,
  h.speaker, sp.name AS speaker_name, h.missing, h.created_at`;
const speakerJoin = 'LEFT JOIN speakers sp ON sp.transcript_id = h.transcript_id AND sp.label = h.speaker';

/**
 * Highlights: a time span of one transcript with a label and a note. Its words are the words
 * spoken inside the span as corrected now; `refresh` keeps the stored copy (`words_text`,
 * searched by the Quotes view) and `missing` in step after a correction. Synchronous; the
 * Library facade makes it async.
 */
export class HighlightStore {
  constructor(
    private readonly db: Db,
    private readonly jobs: JobStore,
    private readonly now: () => number,
  ) {}

  labels(): HighlightLabel[] {
    return statement(
      this.db,
      'SELECT id, name, color FROM highlight_labels ORDER BY position, id',
    ).all() as HighlightLabel[];
  }

  requireLabel(id: number): HighlightLabel {
    const label = statement(this.db, 'SELECT id, name, color FROM highlight_labels WHERE id = ?').get(id) as
      HighlightLabel | undefined;
    if (!label) throw new VerbatimError('not_found', 'This highlight label no longer exists.', { id });
    return label;
  }

  /** A label by its name, ignoring case, for the command line. */
  labelNamed(name: string): HighlightLabel {
    const label = statement(
      this.db,
      'SELECT id, name, color FROM highlight_labels WHERE name = ? COLLATE NOCASE',
    ).get(name.trim()) as HighlightLabel | undefined;
    if (!label) {
      const names = this.labels().map((known) => known.name);
      throw new VerbatimError(
        'not_found',
        `There is no highlight label called “${name}”. The labels are: ${names.join(', ')}.`,
      );
    }
    return label;
  }

  updateLabel(
    id: number,
    change: { name?: string | undefined; color?: HighlightColor | undefined },
  ): HighlightLabel {
    return inWriteTransaction(this.db, () => {
      const label = this.requireLabel(id);
      const name = change.name?.trim() ?? label.name;
      if (!name) throw new VerbatimError('invalid_input', 'A label needs a name.');
      const taken = statement(
        this.db,
        'SELECT 1 FROM highlight_labels WHERE name = ? COLLATE NOCASE AND id <> ?',
      ).get(name, id);
      if (taken) throw new VerbatimError('invalid_input', `There is already a label called “${name}”.`);
      statement(this.db, 'UPDATE highlight_labels SET name = ?, color = ? WHERE id = ?').run(
        name,
        change.color ?? label.color,
        id,
      );
      return this.requireLabel(id);
    });
  }

  /** The transcripts that have a highlight with this label (what a label change redraws). */
  transcriptsWithLabel(labelId: number): string[] {
    return (
      statement(this.db, 'SELECT DISTINCT transcript_id AS id FROM highlights WHERE label_id = ?').all(
        labelId,
      ) as {
        id: string;
      }[]
    ).map((row) => row.id);
  }

  /**
   * Highlights the words spoken in the span, snapped to them (see `wordsInSpan`). A span with no
   * words is refused: a highlight of silence could never be quoted.
   */
  create(input: NewHighlight): Highlight {
    const parsed = newHighlightSchema.safeParse(input);
    if (!parsed.success)
      throw new VerbatimError(
        'invalid_input',
        parsed.error.issues[0]?.message ?? 'This highlight is not valid.',
      );
    const request = parsed.data;
    return inWriteTransaction(this.db, () => {
      this.jobs.require(request.transcriptId);
      const labelId = request.labelId ?? this.labels()[0]?.id;
      if (labelId === undefined) throw new VerbatimError('not_found', 'There are no highlight labels.');
      this.requireLabel(labelId);
      const covered = this.covered(request.transcriptId, request.startMs, request.endMs);
      if (!covered)
        throw new VerbatimError(
          'invalid_input',
          `Nothing is said between ${clock(request.startMs)} and ${clock(request.endMs)} in this transcript, so there is nothing to highlight. Choose a passage with words in it.`,
        );
      const id = Number(
        statement(
          this.db,
          `INSERT INTO highlights (transcript_id, start_ms, end_ms, label_id, note, words_text, speaker, missing, created_at)
             VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?)`,
        ).run(
          request.transcriptId,
          covered.startMs,
          covered.endMs,
          labelId,
          request.note.trim(),
          covered.text,
          covered.speaker,
          this.now(),
        ).lastInsertRowid,
      );
      return this.require(id);
    });
  }

  get(id: number): Highlight | undefined {
    const row = statement(
      this.db,
      `SELECT ${highlightColumns} FROM highlights h ${speakerJoin} WHERE h.id = ?`,
    ).get(id);
    return row ? toHighlight(row) : undefined;
  }

  require(id: number): Highlight {
    const highlight = this.get(id);
    if (!highlight) throw new VerbatimError('not_found', 'This highlight no longer exists.', { id });
    return highlight;
  }

  update(id: number, change: { labelId?: number | undefined; note?: string | undefined }): Highlight {
    return inWriteTransaction(this.db, () => {
      const highlight = this.require(id);
      if (change.labelId !== undefined) this.requireLabel(change.labelId);
      statement(this.db, 'UPDATE highlights SET label_id = ?, note = ? WHERE id = ?').run(
        change.labelId ?? highlight.labelId,
        change.note?.trim() ?? highlight.note,
        id,
      );
      return this.require(id);
    });
  }

  /** Deletes the highlight; story quotes of it keep their snapshot (the foreign key sets NULL). */
  delete(id: number): Highlight {
    return inWriteTransaction(this.db, () => {
      const highlight = this.require(id);
      statement(this.db, 'DELETE FROM highlights WHERE id = ?').run(id);
      return highlight;
    });
  }

  /** A transcript's highlights in the order they are spoken. */
  list(transcriptId: string): Highlight[] {
    this.jobs.require(transcriptId);
    return statement(
      this.db,
      `SELECT ${highlightColumns} FROM highlights h ${speakerJoin} WHERE h.transcript_id = ? ORDER BY h.start_ms, h.id`,
    )
      .all(transcriptId)
      .map(toHighlight);
  }

  /** The ids of a transcript's highlights. */
  idsOf(transcriptId: string): number[] {
    return (
      statement(this.db, 'SELECT id FROM highlights WHERE transcript_id = ?').all(transcriptId) as {
        id: number;
      }[]
    ).map((row) => row.id);
  }

  /**
   * The Quotes view: highlights across the library matching every filter given, newest
   * recording first, then in the order they are spoken. `query` searches the highlighted words
   * and the notes as library search does (each word, the last one as a prefix); a query with no
   * word in it filters nothing. The page comes straight from an index in that order (migration
   * 9), so it costs the rows it returns rather than every match; the total is counted up to
   * `countCap`, as library search counts.
   */
  quotes(filters: QuoteFilters = {}): QuotePage {
    const f = quoteFiltersSchema.parse(filters);
    const conditions: string[] = [];
    const values: Record<string, unknown> = { limit: f.limit, offset: f.offset, cap: countCap + 1 };
    const match = f.query === undefined ? undefined : toFtsQuery(f.query);
    if (match) {
      conditions.push('h.id IN (SELECT rowid FROM highlights_fts WHERE highlights_fts MATCH @match)');
      values.match = match;
    }
    if (f.labelId !== undefined) {
      conditions.push('h.label_id = @labelId');
      values.labelId = f.labelId;
    }
    if (f.speaker) {
      conditions.push('(h.speaker = @speaker OR sp.name = @speaker COLLATE NOCASE)');
      values.speaker = f.speaker;
    }
    if (f.tag) {
      conditions.push(
        'EXISTS (SELECT 1 FROM transcript_tags tt WHERE tt.transcript_id = h.transcript_id AND tt.tag = @tag)',
      );
      values.tag = f.tag;
    }
    if (f.transcriptId) {
      conditions.push('h.transcript_id = @transcriptId');
      values.transcriptId = f.transcriptId;
    }
    if (f.from !== undefined) {
      conditions.push('h.recorded_at >= @from');
      values.from = f.from;
    }
    if (f.to !== undefined) {
      conditions.push('h.recorded_at <= @to');
      values.to = f.to;
    }
    const where = conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : '';
    // SQLite would otherwise gather every match of a search and sort them; walking the index in
    // the view's order and checking each highlight against the matches stops after one page
    // (a one-letter prefix matching most highlights: 14 ms sorted, 3 ms walked, at 10,000).
    const walk = match && !f.transcriptId ? 'INDEXED BY highlights_in_quotes_order' : '';
    // The count needs no title or label; the speaker join only for the speaker filter.
    const matching = `highlights h ${walk} ${f.speaker ? speakerJoin : ''} ${where}`;
    const rows = statement(
      this.db,
      `SELECT ${highlightColumns}, t.title AS transcript_title, t.created_at AS recorded_at,
           t.language_code, t.newsroom_reporter, t.newsroom_desk,
           l.name AS label_name, l.color AS label_color
         FROM highlights h ${walk} JOIN transcripts t ON t.id = h.transcript_id
           JOIN highlight_labels l ON l.id = h.label_id ${speakerJoin} ${where}
         ORDER BY h.recorded_at DESC, h.transcript_id, h.start_ms, h.id LIMIT @limit OFFSET @offset`,
    ).all(values);
    const total =
      f.offset === 0 && rows.length < f.limit
        ? rows.length
        : (
            statement(this.db, `SELECT count(*) AS n FROM (SELECT 1 FROM ${matching} LIMIT @cap)`).get(
              values,
            ) as { n: number }
          ).n;
    return {
      quotes: this.checked(rows.map(toQuote)),
      total: Math.min(total, countCap),
      totalIsLowerBound: total > countCap,
    };
  }

  /**
   * The transcripts, speakers and tags that have highlights, for the Quotes view's filters
   * (a filter that could only find nothing is not offered).
   */
  facets(): QuoteFacets {
    const transcripts = statement(
      this.db,
      `SELECT t.id, t.title FROM transcripts t
         WHERE EXISTS (SELECT 1 FROM highlights h WHERE h.transcript_id = t.id)
         ORDER BY t.created_at DESC, t.id`,
    ).all() as { id: string; title: string }[];
    const speakers = (
      statement(
        this.db,
        `SELECT DISTINCT coalesce(sp.name, h.speaker) AS value, sp.name AS name
           FROM highlights h ${speakerJoin} WHERE h.speaker IS NOT NULL`,
      ).all() as { value: string; name: string | null }[]
    )
      .map((row) => ({ value: row.value, name: row.name ?? `Speaker ${row.value}` }))
      .sort((a, b) => a.name.localeCompare(b.name));
    const tags = (
      statement(
        this.db,
        `SELECT DISTINCT tt.tag FROM transcript_tags tt
           WHERE EXISTS (SELECT 1 FROM highlights h WHERE h.transcript_id = tt.transcript_id)
           ORDER BY tt.tag COLLATE NOCASE`,
      ).all() as { tag: string }[]
    ).map((row) => row.tag);
    return { transcripts, speakers, tags };
  }

  /** One highlight as the Quotes view shows it. */
  quote(id: number): Quote | undefined {
    const row = statement(
      this.db,
      `SELECT ${highlightColumns}, t.title AS transcript_title, t.created_at AS recorded_at,
           t.language_code, t.newsroom_reporter, t.newsroom_desk,
           l.name AS label_name, l.color AS label_color
         FROM highlights h JOIN transcripts t ON t.id = h.transcript_id
         JOIN highlight_labels l ON l.id = h.label_id ${speakerJoin} WHERE h.id = ?`,
    ).get(id);
    return row ? this.checked([toQuote(row)])[0] : undefined;
  }

  /** The quotes with whether each was checked against the audio (quote-checks.ts). */
  private checked(quotes: Omit<Quote, 'checked'>[]): Quote[] {
    const checks = checksOfQuotes(this.db, quotes);
    return quotes.map((quote, index) => ({ ...quote, checked: checks[index] ?? null }));
  }

  /**
   * Brings a transcript's highlights in step with its corrected words: their text and speaker,
   * or `missing` (keeping the last words known) when every word of the span was deleted. Reads
   * only the sentences around each highlight; a transcript without highlights costs one query.
   * Returns the ids of the highlights that changed.
   */
  refresh(transcriptId: string): number[] {
    const highlights = statement(
      this.db,
      'SELECT id, start_ms, end_ms, words_text, speaker, missing FROM highlights WHERE transcript_id = ?',
    ).all(transcriptId) as {
      id: number;
      start_ms: number;
      end_ms: number;
      words_text: string;
      speaker: string | null;
      missing: number;
    }[];
    if (highlights.length === 0) return [];
    const update = statement(
      this.db,
      'UPDATE highlights SET words_text = ?, speaker = ?, missing = ? WHERE id = ?',
    );
    const changed: number[] = [];
    for (const highlight of highlights) {
      const covered = this.covered(transcriptId, highlight.start_ms, highlight.end_ms);
      const text = covered?.text ?? highlight.words_text;
      const speaker = covered ? covered.speaker : highlight.speaker;
      const missing = covered ? 0 : 1;
      if (text === highlight.words_text && speaker === highlight.speaker && missing === highlight.missing)
        continue;
      update.run(text, speaker, missing, highlight.id);
      changed.push(highlight.id);
    }
    return changed;
  }

  /**
   * The words of the transcript's corrected sentences that the span covers. A word mostly
   * inside the span is less than twice the span long, so the sentences within that distance of
   * it are all that can hold a word the span's words are snapped against.
   */
  covered(transcriptId: string, startMs: number, endMs: number): CoveredWords | null {
    const reach = 2 * (endMs - startMs);
    const sentences = statement(
      this.db,
      `SELECT speaker, words_json FROM sentences
         WHERE transcript_id = ? AND end_ms >= ? AND start_ms <= ? ORDER BY position`,
    ).all(transcriptId, startMs - reach, endMs + reach) as { speaker: string | null; words_json: string }[];
    return wordsInSpan(
      sentences.map((sentence) => ({
        speaker: sentence.speaker,
        words: JSON.parse(sentence.words_json) as Word[],
      })),
      startMs,
      endMs,
    );
  }
}

/** A speaker with no name given is called by their label. */
function withSpeakerName<T extends Highlight>(highlight: T): T {
  return {
    ...highlight,
    speakerName: highlight.speakerName ?? (highlight.speaker ? `Speaker ${highlight.speaker}` : null),
  };
}

function toHighlight(row: unknown): Highlight {
  return withSpeakerName(highlightRow.fromRow(row));
}

function toQuote(row: unknown): Omit<Quote, 'checked'> {
  const { recordedByReporter, recordedByDesk, ...quote } = quoteRow.fromRow(row);
  // A copy kept from the newsroom: its citation names the colleague who recorded it.
  const recordedBy =
    recordedByReporter === null ? undefined : { reporter: recordedByReporter, desk: recordedByDesk ?? '' };
  return withSpeakerName(recordedBy ? { ...quote, recordedBy } : quote);
}

/** A time as a journalist reads it in the transcript: 1:02:03 or 02:03. */
export function clock(ms: number): string {
  const total = Math.floor(ms / 1000);
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  const mm = String(minutes).padStart(2, '0');
  const ss = String(seconds).padStart(2, '0');
  return hours > 0 ? `${hours}:${mm}:${ss}` : `${mm}:${ss}`;
}
