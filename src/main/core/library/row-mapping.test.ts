import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { z } from 'zod';
import { glossaryEntryKindSchema } from '../../../shared/glossary/glossary';
import { openDatabase } from './database';
import { glossaryEntryRow } from './glossary-store';
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

describe('row mapping', () => {
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
