import type { z } from 'zod';

/**
 * One way from a table's snake_case row to the object a store hands out, and back (issue #34).
 * A store names each field's column and how its value is kept; the mapping reads a row
 * (`fromRow`) and writes one (`toRow`), so no store keeps a row interface and a hand mapper
 * that can drift apart from it.
 */
export interface Column<T> {
  readonly name: string;
  fromColumn(value: unknown): T;
  toColumn(value: T): unknown;
}

/** A column kept as it is read: text, a number, or NULL where the column allows it. */
export function value<T>(name: string): Column<T> {
  return { name, fromColumn: (stored) => stored as T, toColumn: (field) => field };
}

/** SQLite has no boolean: 1 or 0. */
export function flag(name: string): Column<boolean> {
  return { name, fromColumn: (stored) => stored !== 0, toColumn: (field) => (field ? 1 : 0) };
}

/** JSON text, checked against its schema as it is read: a damaged value fails loudly, not later. */
export function json<T>(name: string, schema: z.ZodType<T>): Column<T> {
  return {
    name,
    fromColumn: (stored) => schema.parse(JSON.parse(stored as string)),
    toColumn: (field) => JSON.stringify(field),
  };
}

/** A column that may hold NULL, whatever its kind otherwise. */
export function nullable<T>(column: Column<T>): Column<T | null> {
  return {
    name: column.name,
    fromColumn: (stored) => (stored === null ? null : column.fromColumn(stored)),
    toColumn: (field) => (field === null ? null : column.toColumn(field)),
  };
}

type Spec = Record<string, Column<never> | Column<unknown>>;
export type MappedRow<S extends Spec> = { [K in keyof S]: S[K] extends Column<infer T> ? T : never };

/** Plain functions (no `this`), so `rows.map(mapping.fromRow)` reads as it should. */
export interface RowMapping<S extends Spec> {
  /**
   * The mapped columns, comma-separated, for a SELECT: a store reads only what it maps, never
   * `SELECT *` (a transcript's row also holds its service JSON and full text, megabytes that
   * every job read paid for before, issue #33).
   */
  readonly columns: string;
  fromRow(this: void, row: unknown): MappedRow<S>;
  toRow(this: void, mapped: MappedRow<S>): Record<string, unknown>;
}

export function rowMapping<S extends Spec>(spec: S): RowMapping<S> {
  const fields = Object.entries(spec) as [keyof S & string, Column<unknown>][];
  return {
    columns: fields.map(([, column]) => column.name).join(', '),
    fromRow(row) {
      const stored = row as Record<string, unknown>;
      const mapped: Record<string, unknown> = {};
      for (const [field, column] of fields) mapped[field] = column.fromColumn(stored[column.name]);
      return mapped as MappedRow<S>;
    },
    toRow(mapped) {
      const row: Record<string, unknown> = {};
      for (const [field, column] of fields) row[column.name] = column.toColumn(mapped[field]);
      return row;
    },
  };
}
