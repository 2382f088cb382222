/**
 * Misheard forms typed in one field, separated by commas or semicolons ("Brenan, Bren Ann"),
 * as the CSV file separates them with semicolons; empty pieces and repeats are dropped.
 */
export function formsFromText(text: string): string[] {
  const forms = text
    .split(/[,;]/)
    .map((form) => form.trim())
    .filter((form) => form.length > 0);
  return [...new Set(forms)];
}

export function formsToText(forms: readonly string[]): string {
  return forms.join(', ');
}
