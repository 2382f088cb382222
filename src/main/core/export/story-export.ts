import { VerbatimError } from '../../../shared/errors';
import type { Story } from '../../../shared/highlights';
import {
  type StoryExportFormat,
  type StoryExportOptions,
  type StoryExportOptionsInput,
  storyExportOptionsSchema,
} from '../../../shared/story-export-options';
import type { AtomicWriteOps } from '../../base/fs';
import { writeExportFile } from './export-file';
import { documentTexts } from './document-model';
import { documentToDocx } from './docx-export';
import { documentToMarkdown, documentToPlainText } from './document-text';
import { type CjkFonts, hasCjk, systemCjkFonts } from './fonts';
import { documentToPdf } from './pdf-export';
import { storyDocument } from './story-document';

/**
 * A story as a file: Markdown and plain text as strings, Word and PDF as bytes, all made from
 * the one document tree (story-document.ts, document-model.ts). Writing is exportStory's job, atomically.
 */

/** The options as the caller gave them, checked: a bad citation style is refused in plain words. */
export function parseStoryExportOptions(input: StoryExportOptionsInput | undefined): StoryExportOptions {
  const parsed = storyExportOptionsSchema.safeParse(input ?? {});
  if (!parsed.success) {
    const message = parsed.error.issues[0]?.message ?? 'The story export options are not valid.';
    throw new VerbatimError('invalid_input', message, { issues: parsed.error.issues });
  }
  return parsed.data;
}

export interface StoryExportEnv {
  /** The CJK font for PDFs; the system's when absent, null for none (tests). */
  cjkFonts?: CjkFonts | null;
}

export interface RenderedStory {
  bytes: Uint8Array;
  warnings: string[];
}

export async function renderStory(
  story: Story,
  format: StoryExportFormat,
  input: StoryExportOptionsInput | undefined,
  env: StoryExportEnv = {},
): Promise<RenderedStory> {
  const d = storyDocument(story, parseStoryExportOptions(input));
  const encode = (text: string): Uint8Array => new TextEncoder().encode(text);
  switch (format) {
    case 'md':
      return { bytes: encode(documentToMarkdown(d)), warnings: [] };
    case 'txt':
      return { bytes: encode(documentToPlainText(d)), warnings: [] };
    case 'docx':
      return { bytes: await documentToDocx(d), warnings: [] };
    case 'pdf': {
      const cjk = env.cjkFonts === undefined ? systemCjkFonts() : env.cjkFonts;
      const warnings =
        cjk === null && documentTexts(d).some(hasCjk)
          ? [
              'Chinese, Japanese or Korean text shows as empty boxes in this PDF: no font for it was found on this computer. Install one (on Debian or Ubuntu: sudo apt install fonts-noto-cjk; on Windows and macOS the system fonts are enough) and export again, or export to Word, which uses the reader’s fonts.',
            ]
          : [];
      return { bytes: await documentToPdf(d, cjk), warnings };
    }
  }
}

export interface StoryExportRequest {
  format: StoryExportFormat;
  path: string;
  options?: StoryExportOptionsInput;
  /** Replace a file already at the path; otherwise it is refused. */
  replace: boolean;
}

/**
 * Renders the story and saves it atomically (export-file.ts): the whole file or, on failure,
 * nothing new and a sentence saying why.
 */
export async function exportStory(
  story: Story,
  request: StoryExportRequest,
  env: StoryExportEnv & { ops?: AtomicWriteOps } = {},
): Promise<{ path: string; warnings: string[] }> {
  const { bytes, warnings } = await renderStory(story, request.format, request.options, env);
  await writeExportFile(request.path, bytes, {
    replace: request.replace,
    ...(env.ops ? { ops: env.ops } : {}),
  });
  return { path: request.path, warnings };
}
