import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * DejaVu Sans covers Latin, Greek, Cyrillic, Arabic and Hebrew, so PDFs of non-Latin
 * transcripts are readable without relying on fonts installed on the user's machine.
 * It does not cover Chinese, Japanese or Korean: those glyphs render as empty boxes.
 */
export interface PdfFonts {
  regular: string;
  bold: string;
}

let cached: PdfFonts | undefined;

/** Paths to the DejaVu TTFs shipped by the `dejavu-fonts-ttf` package. */
export function dejaVuFonts(): PdfFonts {
  if (cached) return cached;
  // Resolve through the package rather than a relative path so it works from source,
  // from the bundled main process and from tests alike.
  const require = createRequire(import.meta.url);
  const dir = join(dirname(require.resolve('dejavu-fonts-ttf/package.json')), 'ttf');
  cached = { regular: join(dir, 'DejaVuSans.ttf'), bold: join(dir, 'DejaVuSans-Bold.ttf') };
  return cached;
}
