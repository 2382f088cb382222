import { z } from 'zod';
import { storyExportFormatSchema, storyExportOptionsSchema } from '../story-export-options';

/**
 * Exporting a story over the contract (issue #20): the document in Word, PDF, Markdown or plain
 * text with a citation per quote, and optionally a folder of audio clips, one per quote. The
 * clips say per quote what could not be cut (an MP3 recording, a recording no longer there)
 * while the others are written.
 */
const path = z.string().trim().min(1, 'Enter where to save the story.').max(4096);

export const storyClipsResultSchema = z.object({
  folder: z.string(),
  written: z.array(z.object({ number: z.number().int(), path: z.string() })),
  /** A sentence per quote not cut: which one, and why. */
  skipped: z.array(z.object({ number: z.number().int(), reason: z.string() })),
});
export type StoryClipsSummary = z.infer<typeof storyClipsResultSchema>;

export const storyExportContract = {
  'stories.export': {
    input: z
      .object({
        id: z.number().int(),
        format: storyExportFormatSchema,
        path,
        options: storyExportOptionsSchema.optional(),
        /** Replace the file (and clips) already there: the journalist said so. */
        replace: z.boolean().optional(),
        /** Where to write one audio clip per quote; no clips when absent. */
        clipsFolder: path.optional(),
      })
      .strict(),
    output: z.object({
      path: z.string(),
      warnings: z.array(z.string()),
      clips: storyClipsResultSchema.nullable(),
    }),
  },
};
