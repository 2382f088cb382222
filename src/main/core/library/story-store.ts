import { z } from 'zod';
import { inReadTransaction, inWriteTransaction, type Db } from './database';
import { VerbatimError } from '../../../shared/errors';
import {
  placesInStory,
  recordedBySchema,
  storyNameMaxLength,
  type RecordedBy,
  type QuoteAlreadyInStory,
  type QuotesOnDelete,
  type Story,
  type StoryItem,
  type StorySummary,
} from '../../../shared/highlights';
import { quoteCheckSchema, type QuoteCheck } from '../../../shared/quote-check';
import type { HighlightStore } from './highlight-store';
import { foldForSearch } from './fold-for-search';
import { json, nullable, rowMapping, value, type MappedRow } from './row-mapping';
import { statement } from './statement-cache';

/** What a quote showed when last seen: all a quote kept as text still has of its transcript. */
interface QuoteSnapshot {
  text: string;
  speakerName: string | null;
  transcriptId: string | null;
  transcriptTitle: string;
  recordedAt: number;
  languageCode: string | null;
  startMs: number;
  endMs: number;
  missing: boolean;
  /** The colleague who recorded a quote of a copy kept from the newsroom. */
  recordedBy?: RecordedBy;
  /** Whether its words were checked against the audio, by whom and when. */
  checked: QuoteCheck | null;
}

/**
 * A snapshot as stored, checked as it is read: one kept before quotes knew their language has
 * none, and the oldest may have no field at all (a quote then shows what is left: nothing).
 */
const storedSnapshotSchema = z
  .object({
    text: z.string(),
    speakerName: z.string().nullable(),
    transcriptId: z.string().nullable(),
    transcriptTitle: z.string(),
    recordedAt: z.number(),
    languageCode: z.string().nullable(),
    startMs: z.number(),
    endMs: z.number(),
    missing: z.boolean(),
    recordedBy: recordedBySchema,
    checked: quoteCheckSchema.nullable(),
  })
  .partial();

/** A story's row, its quotes counted beside it by the query. */
export const storySummaryRow = rowMapping({
  id: value<number>('id'),
  name: value<string>('name'),
  createdAt: value<number>('created_at'),
  updatedAt: value<number>('updated_at'),
  quotes: value<number>('quotes'),
});

const storyItemFields = {
  id: value<number>('id'),
  kind: value<'quote' | 'text'>('kind'),
  highlightId: value<number | null>('highlight_id'),
  text: value<string>('text'),
  snapshot: nullable(json('snapshot_json', storedSnapshotSchema)),
};
export const storyItemRow = rowMapping(storyItemFields);
type StoryItemRow = MappedRow<typeof storyItemFields>;
const storyItemColumns = 'id, kind, highlight_id, text, snapshot_json';
/** An item with its story's id, as search reads every item at once. */
const searchedItemRow = rowMapping({ ...storyItemFields, storyId: value<number>('story_id') });

export interface AddQuoteOptions {
  /** Where the quote goes, 0 being the top; the end when absent or past it. */
  index?: number | undefined;
  /** Adds the quote even when the story already quotes the highlight. */
  again?: boolean | undefined;
}

/** A story found by `search`, with where it matched first. */
export type StorySearchHit = StorySummary & { match: string };

/** Who asks about the quotes of a transcript before deleting it. */
export interface QuotesOfTranscript {
  quotes: number;
  stories: string[];
}

/**
 * Stories: named, ordered lists of quotes (a highlight) and the journalist's own text. Item
 * positions stay 0..n-1 in order. A quote shows its highlight's current words; its snapshot is
 * rewritten whenever those change, so a quote whose transcript was deleted keeps what it last
 * showed. Synchronous; the Library facade makes it async.
 */
export class StoryStore {
  constructor(
    private readonly db: Db,
    private readonly highlights: HighlightStore,
    private readonly now: () => number,
  ) {}

  list(): StorySummary[] {
    return statement(
      this.db,
      `SELECT s.id, s.name, s.created_at, s.updated_at,
             (SELECT count(*) FROM story_items i WHERE i.story_id = s.id AND i.kind = 'quote') AS quotes
           FROM stories s ORDER BY s.updated_at DESC, s.id DESC`,
    )
      .all()
      .map(storySummaryRow.fromRow);
  }

  /**
   * The stories that mention every word of `query` (the last one may be the start of a word) in
   * their name, their own text or their quotes (the words, the speaker, the source's title),
   * ignoring case and accents, as `list` orders them, each with the first place it matched.
   * Stories are few (hundreds), so they are read whole rather than indexed.
   */
  search(query: string): StorySearchHit[] {
    const words = foldForSearch(query).split(/\s+/).filter(Boolean);
    if (words.length === 0) return [];
    const texts = new Map<number, string[]>();
    const items = statement(
      this.db,
      `SELECT story_id, ${storyItemColumns} FROM story_items ORDER BY position`,
    ).all();
    for (const item of items.map(searchedItemRow.fromRow)) {
      const { snapshot } = item;
      const parts = snapshot
        ? [snapshot.text, snapshot.speakerName ?? '', snapshot.transcriptTitle]
        : [item.text];
      texts.set(item.storyId, [...(texts.get(item.storyId) ?? []), parts.filter(Boolean).join(' — ')]);
    }
    return this.list().flatMap((story) => {
      const places = [story.name, ...(texts.get(story.id) ?? [])];
      const folded = places.map(foldForSearch);
      if (!words.every((word) => folded.some((text) => text.includes(word)))) return [];
      const first = folded.findIndex((text) => text.includes(words[0]!));
      return [{ ...story, match: places[first] ?? story.name }];
    });
  }

  create(name: string): Story {
    return inWriteTransaction(this.db, () => {
      const clean = this.freeName(name);
      const at = this.now();
      const id = Number(
        statement(this.db, 'INSERT INTO stories (name, created_at, updated_at) VALUES (?, ?, ?)').run(
          clean,
          at,
          at,
        ).lastInsertRowid,
      );
      return this.get(id);
    });
  }

  rename(id: number, name: string): Story {
    return inWriteTransaction(this.db, () => {
      this.requireRow(id);
      statement(this.db, 'UPDATE stories SET name = ?, updated_at = ? WHERE id = ?').run(
        this.freeName(name, id),
        this.now(),
        id,
      );
      return this.get(id);
    });
  }

  delete(id: number): void {
    inWriteTransaction(this.db, () => {
      this.requireRow(id);
      statement(this.db, 'DELETE FROM stories WHERE id = ?').run(id);
    });
  }

  /** The story and its items from one snapshot, so another process's change is seen whole or not at all. */
  get(id: number): Story {
    return inReadTransaction(this.db, () => {
      const story = this.requireRow(id);
      const items = statement(
        this.db,
        `SELECT ${storyItemColumns} FROM story_items WHERE story_id = ? ORDER BY position, id`,
      ).all(id);
      return { ...story, items: items.map((row) => this.toItem(storyItemRow.fromRow(row))) };
    });
  }

  /** A story by its id (digits) or its name (ignoring case), as the command line names it. */
  find(reference: string): Story {
    const trimmed = reference.trim();
    const byName = statement(this.db, 'SELECT id FROM stories WHERE name = ? COLLATE NOCASE').get(trimmed) as
      { id: number } | undefined;
    if (byName) return this.get(byName.id);
    if (/^\d+$/.test(trimmed)) {
      const byId = statement(this.db, 'SELECT id FROM stories WHERE id = ?').get(Number(trimmed)) as
        { id: number } | undefined;
      if (byId) return this.get(byId.id);
    }
    throw new VerbatimError('not_found', `There is no story called “${trimmed}”.`);
  }

  /**
   * Adds a highlight as a quote at `index` (the end when absent or past it). A story that
   * already quotes the highlight is refused, saying where, unless `again` says to quote it twice.
   */
  addQuote(storyId: number, highlightId: number, { index, again = false }: AddQuoteOptions = {}): Story {
    return inWriteTransaction(this.db, () => {
      const story = this.requireRow(storyId);
      const snapshot = this.snapshotOf(highlightId);
      if (!snapshot)
        throw new VerbatimError('not_found', 'This highlight no longer exists.', { highlightId });
      if (!again) {
        const order = this.itemIds(storyId);
        const quoting = (
          statement(this.db, 'SELECT id FROM story_items WHERE story_id = ? AND highlight_id = ?').all(
            storyId,
            highlightId,
          ) as { id: number }[]
        ).map((row) => row.id);
        if (quoting.length > 0) {
          const already: QuoteAlreadyInStory = {
            reason: 'quote_already_in_story',
            storyId,
            storyName: story.name,
            highlightId,
            positions: quoting.map((id) => order.indexOf(id) + 1).sort((a, b) => a - b),
            items: order.length,
          };
          throw new VerbatimError(
            'conflict',
            `This quote is already in the story “${story.name}”, as ${placesInStory(already)}. Add it again only if you mean to quote it there twice.`,
            already,
          );
        }
      }
      this.insertItem(storyId, index, { kind: 'quote', highlightId, text: '', snapshot });
      return this.get(storyId);
    });
  }

  addText(storyId: number, text: string, index?: number): Story {
    return inWriteTransaction(this.db, () => {
      this.requireRow(storyId);
      this.insertItem(storyId, index, { kind: 'text', highlightId: null, text, snapshot: null });
      return this.get(storyId);
    });
  }

  editText(storyId: number, itemId: number, text: string): Story {
    return inWriteTransaction(this.db, () => {
      const item = this.requireItem(storyId, itemId);
      if (item.kind !== 'text')
        throw new VerbatimError(
          'invalid_input',
          'A quote shows the words of its transcript; correct them in the transcript.',
        );
      statement(this.db, 'UPDATE story_items SET text = ? WHERE id = ?').run(text, itemId);
      return this.touched(storyId);
    });
  }

  /** Moves an item so that it ends up at `index` (0 = top; past the end = last). */
  moveItem(storyId: number, itemId: number, index: number): Story {
    return inWriteTransaction(this.db, () => {
      this.requireItem(storyId, itemId);
      const order = this.itemIds(storyId).filter((id) => id !== itemId);
      order.splice(Math.min(Math.max(0, index), order.length), 0, itemId);
      this.renumber(order);
      return this.touched(storyId);
    });
  }

  removeItem(storyId: number, itemId: number): Story {
    return inWriteTransaction(this.db, () => {
      this.requireItem(storyId, itemId);
      statement(this.db, 'DELETE FROM story_items WHERE id = ?').run(itemId);
      this.renumber(this.itemIds(storyId));
      return this.touched(storyId);
    });
  }

  /**
   * Trims a quote to a narrower span inside its own. The item gets a new highlight of that
   * span (same label and note) rather than narrowing the one it quotes: that highlight is also
   * in the reader, the Quotes view and maybe other stories, and trimming one story's quote must
   * not take words from them.
   */
  trimQuote(storyId: number, itemId: number, startMs: number, endMs: number): Story {
    return inWriteTransaction(this.db, () => {
      const item = this.requireItem(storyId, itemId);
      if (item.kind !== 'quote') throw new VerbatimError('invalid_input', 'Only a quote can be trimmed.');
      const highlight = item.highlightId === null ? undefined : this.highlights.get(item.highlightId);
      if (!highlight)
        throw new VerbatimError(
          'invalid_input',
          'This quote is no longer linked to its transcript, so it cannot be trimmed; edit the story text instead.',
        );
      if (startMs < highlight.startMs || endMs > highlight.endMs || endMs <= startMs)
        throw new VerbatimError('invalid_input', 'A quote can only be trimmed to fewer of its own words.');
      const trimmed = this.highlights.create({
        transcriptId: highlight.transcriptId,
        startMs,
        endMs,
        labelId: highlight.labelId,
        note: highlight.note,
      });
      statement(this.db, 'UPDATE story_items SET highlight_id = ?, snapshot_json = ? WHERE id = ?').run(
        trimmed.id,
        JSON.stringify(this.snapshotOf(trimmed.id)),
        itemId,
      );
      return this.touched(storyId);
    });
  }

  /** How many story quotes come from a transcript, and the names of their stories. */
  quotesOf(transcriptId: string): QuotesOfTranscript {
    const rows = statement(
      this.db,
      `SELECT s.name, count(*) AS n FROM story_items i JOIN highlights h ON h.id = i.highlight_id
         JOIN stories s ON s.id = i.story_id WHERE h.transcript_id = ? GROUP BY s.id ORDER BY s.name`,
    ).all(transcriptId) as { name: string; n: number }[];
    return { quotes: rows.reduce((sum, row) => sum + row.n, 0), stories: rows.map((row) => row.name) };
  }

  /**
   * Before a transcript is deleted: its quotes are kept as text (their snapshot brought up to
   * date; the foreign key then unlinks them) or removed from their stories. Returns the
   * stories touched; no other story is.
   */
  beforeTranscriptDeleted(transcriptId: string, quotesInStories: QuotesOnDelete): number[] {
    const items = statement(
      this.db,
      `SELECT i.id, i.story_id, i.highlight_id FROM story_items i JOIN highlights h ON h.id = i.highlight_id
         WHERE h.transcript_id = ?`,
    ).all(transcriptId) as { id: number; story_id: number; highlight_id: number }[];
    const stories = [...new Set(items.map((item) => item.story_id))];
    if (quotesInStories === 'keep-as-text') {
      const update = statement(this.db, 'UPDATE story_items SET snapshot_json = ? WHERE id = ?');
      for (const item of items) {
        const snapshot = this.snapshotOf(item.highlight_id);
        if (snapshot) update.run(JSON.stringify(snapshot), item.id);
      }
    } else {
      const remove = statement(this.db, 'DELETE FROM story_items WHERE id = ?');
      for (const item of items) remove.run(item.id);
      for (const story of stories) this.renumber(this.itemIds(story));
    }
    const at = this.now();
    for (const story of stories)
      statement(this.db, 'UPDATE stories SET updated_at = ? WHERE id = ?').run(at, story);
    return stories;
  }

  /** Rewrites the snapshot of every quote of these highlights; returns the stories touched. */
  refreshSnapshots(highlightIds: readonly number[]): number[] {
    if (highlightIds.length === 0) return [];
    const stories = new Set<number>();
    const items = statement(this.db, 'SELECT id, story_id FROM story_items WHERE highlight_id = ?');
    const update = statement(this.db, 'UPDATE story_items SET snapshot_json = ? WHERE id = ?');
    for (const highlightId of highlightIds) {
      const snapshot = this.snapshotOf(highlightId);
      if (!snapshot) continue;
      for (const item of items.all(highlightId) as { id: number; story_id: number }[]) {
        update.run(JSON.stringify(snapshot), item.id);
        stories.add(item.story_id);
      }
    }
    return [...stories];
  }

  /** The stories that quote any of these highlights. */
  storiesQuoting(highlightIds: readonly number[]): number[] {
    const select = statement(
      this.db,
      'SELECT DISTINCT story_id AS id FROM story_items WHERE highlight_id = ?',
    );
    return [
      ...new Set(highlightIds.flatMap((id) => (select.all(id) as { id: number }[]).map((row) => row.id))),
    ];
  }

  private snapshotOf(highlightId: number): QuoteSnapshot | undefined {
    const quote = this.highlights.quote(highlightId);
    if (!quote) return undefined;
    return {
      text: quote.text,
      speakerName: quote.speakerName,
      transcriptId: quote.transcriptId,
      transcriptTitle: quote.transcriptTitle,
      recordedAt: quote.recordedAt,
      languageCode: quote.languageCode,
      startMs: quote.startMs,
      endMs: quote.endMs,
      missing: quote.missing,
      ...(quote.recordedBy ? { recordedBy: quote.recordedBy } : {}),
      checked: quote.checked,
    };
  }

  private toItem(item: StoryItemRow): StoryItem {
    if (item.kind === 'text') return { id: item.id, kind: 'text', text: item.text };
    // A linked quote shows its highlight as it is now (speaker renamed, title changed…).
    const live = item.highlightId === null ? undefined : this.snapshotOf(item.highlightId);
    if (live) return { id: item.id, kind: 'quote', highlightId: item.highlightId, ...live };
    const kept = item.snapshot;
    return {
      id: item.id,
      kind: 'quote',
      highlightId: null,
      text: kept?.text ?? '',
      speakerName: kept?.speakerName ?? null,
      // The transcript (or the highlight) is gone: the quote is what it last showed.
      transcriptId: null,
      transcriptTitle: kept?.transcriptTitle ?? '',
      recordedAt: kept?.recordedAt ?? 0,
      languageCode: kept?.languageCode ?? null,
      startMs: kept?.startMs ?? 0,
      endMs: kept?.endMs ?? 0,
      missing: true,
      ...(kept?.recordedBy ? { recordedBy: kept.recordedBy } : {}),
      // What it showed when its transcript went: a quote checked then was heard as it is printed.
      checked: kept?.checked ?? null,
    };
  }

  private insertItem(
    storyId: number,
    index: number | undefined,
    item: {
      kind: 'quote' | 'text';
      highlightId: number | null;
      text: string;
      snapshot: QuoteSnapshot | null;
    },
  ): void {
    const order = this.itemIds(storyId);
    const at = index === undefined ? order.length : Math.min(Math.max(0, index), order.length);
    const id = Number(
      statement(
        this.db,
        'INSERT INTO story_items (story_id, position, kind, highlight_id, text, snapshot_json) VALUES (?, ?, ?, ?, ?, ?)',
      ).run(
        storyId,
        at,
        item.kind,
        item.highlightId,
        item.text,
        item.snapshot ? JSON.stringify(item.snapshot) : null,
      ).lastInsertRowid,
    );
    order.splice(at, 0, id);
    this.renumber(order);
    statement(this.db, 'UPDATE stories SET updated_at = ? WHERE id = ?').run(this.now(), storyId);
  }

  private itemIds(storyId: number): number[] {
    return (
      statement(this.db, 'SELECT id FROM story_items WHERE story_id = ? ORDER BY position, id').all(
        storyId,
      ) as {
        id: number;
      }[]
    ).map((row) => row.id);
  }

  private renumber(order: readonly number[]): void {
    const set = statement(this.db, 'UPDATE story_items SET position = ? WHERE id = ?');
    order.forEach((id, position) => set.run(position, id));
  }

  private touched(storyId: number): Story {
    statement(this.db, 'UPDATE stories SET updated_at = ? WHERE id = ?').run(this.now(), storyId);
    return this.get(storyId);
  }

  private requireRow(id: number): StorySummary {
    const row = statement(
      this.db,
      `SELECT s.id, s.name, s.created_at, s.updated_at,
           (SELECT count(*) FROM story_items i WHERE i.story_id = s.id AND i.kind = 'quote') AS quotes
         FROM stories s WHERE s.id = ?`,
    ).get(id);
    if (!row) throw new VerbatimError('not_found', 'This story no longer exists.', { id });
    return storySummaryRow.fromRow(row);
  }

  private requireItem(storyId: number, itemId: number): StoryItemRow {
    this.requireRow(storyId);
    const item = statement(
      this.db,
      `SELECT ${storyItemColumns} FROM story_items WHERE id = ? AND story_id = ?`,
    ).get(itemId, storyId);
    if (!item)
      throw new VerbatimError('not_found', 'This part of the story no longer exists.', { id: itemId });
    return storyItemRow.fromRow(item);
  }

  /** The name trimmed, if no other story has it (names are unique, ignoring case). */
  private freeName(name: string, self?: number): string {
    const clean = name.trim();
    if (!clean) throw new VerbatimError('invalid_input', 'A story needs a name.');
    if (clean.length > storyNameMaxLength)
      throw new VerbatimError(
        'invalid_input',
        `A story name can be at most ${storyNameMaxLength} characters.`,
      );
    const taken = statement(this.db, 'SELECT id FROM stories WHERE name = ? COLLATE NOCASE').get(clean) as
      { id: number } | undefined;
    if (taken && taken.id !== self)
      throw new VerbatimError(
        'invalid_input',
        `There is already a story called “${clean}”. Choose another name.`,
      );
    return clean;
  }
}
