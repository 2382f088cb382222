/** Folds case and accents away, so "Ortíz" finds "ortiz" as library search (FTS5 remove_diacritics) does. */
export function foldForSearch(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLocaleLowerCase();
}
