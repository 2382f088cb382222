import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { z } from 'zod';
import { glossaryEntryKindSchema } from '../../../shared/glossary/glossary';
import { openDatabase } from './database';
import { editRow } from './corrections-store';
import { glossaryEntryRow } from './glossary-store';
import { storyItemRow, storySummaryRow } from './story-store';
import { flag, json, nullable, rowMapping, value } from './row-mapping';

const entry = fc.record({
  id: fc.integer({ min: 1 }),
  glossaryId: fc.integer({ min: 1 }),
  term: fc.string(),
  kind: fc.constantFrom(...glossaryEntryKindSchema.options),
  misheard: fc.array(fc.string()),
  note: fc.string(),
  usedAt: fc.integer({ min: 0 }),
});

const optional = <T>(arbitrary: fc.Arbitrary<T>): fc.Arbitrary<T | null> =>
  fc.option(arbitrary, { nil: null });

const storySummary = fc.record({
  id: fc.integer({ min: 1 }),
  name: fc.string(),
  createdAt: fc.integer({ min: 0 }),
  updatedAt: fc.integer({ min: 0 }),
  quotes: fc.nat(),
});

/** Snapshots as stored over the years: any field may be missing from an old one. */
const storyItem = fc.record({
  id: fc.integer({ min: 1 }),
  kind: fc.constantFrom('quote' as const, 'text' as const),
  highlightId: optional(fc.integer({ min: 1 })),
  text: fc.string(),
  snapshot: optional(
    fc.record(
      {
        text: fc.string(),
        speakerName: optional(fc.string()),
        transcriptId: optional(fc.string()),
        transcriptTitle: fc.string(),
        recordedAt: fc.integer({ min: 0 }),
        languageCode: optional(fc.string()),
        startMs: fc.nat(),
        endMs: fc.nat(),
        missing: fc.boolean(),
      },
      { requiredKeys: [] },
    ),
  ),
});

const sentence = fc.record({
  startMs: fc.nat(),
  endMs: fc.nat(),
  speaker: optional(fc.string()),
  confidence: optional(fc.nat({ max: 100 }).map((percent) => percent / 100)),
  text: fc.string(),
  words: fc.array(
    fc.record(
      {
        text: fc.string(),
        start: fc.nat(),
        end: fc.nat(),
        confidence: fc.nat({ max: 100 }).map((percent) => percent / 100),
        speaker: optional(fc.string()),
        corrected: fc.boolean(),
      },
      { requiredKeys: ['text', 'start', 'end', 'confidence'] },
    ),
    { maxLength: 3 },
  ),
});

const edit = fc.record({
  id: fc.integer({ min: 1 }),
  kind: fc.string(),
  summary: fc.string(),
  createdAt: fc.integer({ min: 0 }),
  undoneAt: optional(fc.integer({ min: 0 })),
  steps: fc.array(
    fc.array(
      fc.record({
        position: fc.nat(),
        removed: fc.array(sentence, { maxLength: 2 }),
        inserted: fc.array(sentence, { maxLength: 2 }),
      }),
      { maxLength: 2 },
    ),
    { minLength: 1, maxLength: 3 },
  ),
});

/** Every mapping round-trips: to its row and back, through SQLite's own values too. */
function roundTrips<T>(
  mapping: { toRow(mapped: T): Record<string, unknown>; fromRow(row: unknown): T },
  columns: string[],
  arbitrary: fc.Arbitrary<T>,
): void {
  const db = openDatabase(':memory:');
  const echo = db.prepare(`SELECT ${columns.map((column) => `@${column} AS ${column}`).join(', ')}`);
  fc.assert(
    fc.property(arbitrary, (original) => {
      const row = mapping.toRow(original);
      expect(Object.keys(row).sort()).toEqual([...columns].sort());
      expect(mapping.fromRow(row)).toEqual(original);
      expect(mapping.fromRow(echo.get(row))).toEqual(original);
      expect(mapping.toRow(mapping.fromRow(row))).toEqual(row);
    }),
  );
  db.close();
}

describe('row mapping', () => {
  it('any story, story item and correction maps to its row and back unchanged, through SQLite too', () => {
    roundTrips(storySummaryRow, ['id', 'name', 'created_at', 'updated_at', 'quotes'], storySummary);
    roundTrips(storyItemRow, ['id', 'kind', 'highlight_id', 'text', 'snapshot_json'], storyItem);
    roundTrips(editRow, ['id', 'kind', 'summary', 'created_at', 'undone_at', 'steps_json'], edit);
  });

  it('reads a damaged story snapshot or correction as an error, not as a quote or an undo', () => {
    const item = { id: 1, kind: 'quote', highlight_id: null, text: '' };
    expect(() => storyItemRow.fromRow({ ...item, snapshot_json: '{"text":7}' })).toThrow();
    expect(storyItemRow.fromRow({ ...item, snapshot_json: '{}' }).snapshot).toEqual({});
    const correction = { id: 1, kind: 'turn', summary: 'Fixed a word', created_at: 0, undone_at: null };
    expect(() => editRow.fromRow({ ...correction, steps_json: '[[{"position":-1}]]' })).toThrow();
  });

  it('any glossary entry maps to its row and back unchanged, through SQLite too', () => {
    const db = openDatabase(':memory:');
    const echo = db.prepare(
      'SELECT @id AS id, @glossary_id AS glossary_id, @term AS term, @kind AS kind, @misheard_json AS misheard_json, @note AS note, @used_at AS used_at',
    );
    fc.assert(
      fc.property(entry, (original) => {
        const row = glossaryEntryRow.toRow(original);
        expect(glossaryEntryRow.fromRow(row)).toEqual(original);
        expect(glossaryEntryRow.fromRow(echo.get(row))).toEqual(original);
        expect(glossaryEntryRow.toRow(glossaryEntryRow.fromRow(row))).toEqual(row);
      }),
    );
    db.close();
  });

  it('keeps flags as 1 or 0, NULL as null, and JSON as its schema says', () => {
    const mapping = rowMapping({
      done: flag('done_flag'),
      due: nullable(json('due_json', z.object({ at: z.number() }))),
      label: value<string | null>('label'),
    });
    fc.assert(
      fc.property(
        fc.record({
          done: fc.boolean(),
          due: fc.option(fc.record({ at: fc.integer() }), { nil: null }),
          label: fc.option(fc.string(), { nil: null }),
        }),
        (original) => {
          const row = mapping.toRow(original);
          expect(row.done_flag).toBe(original.done ? 1 : 0);
          expect(row.due_json === null).toBe(original.due === null);
          expect(mapping.fromRow(row)).toEqual(original);
        },
      ),
    );
    expect(() => mapping.fromRow({ done_flag: 1, due_json: '{"at":"soon"}', label: null })).toThrow();
  });

  it('names exactly its columns for a SELECT, and a row read through them maps whole', () => {
    const mapping = rowMapping({ done: flag('done_flag'), label: value<string>('label') });
    expect(mapping.columns).toBe('done_flag, label');
    const db = new Database(':memory:');
    db.exec(
      "CREATE TABLE t (done_flag INTEGER, label TEXT, big TEXT); INSERT INTO t VALUES (1, 'a', 'megabytes')",
    );
    const row = db.prepare(`SELECT ${mapping.columns} FROM t`).get() as Record<string, unknown>;
    expect(Object.keys(row)).toEqual(['done_flag', 'label']);
    expect(mapping.fromRow(row)).toEqual({ done: true, label: 'a' });
    db.close();
  });
});
