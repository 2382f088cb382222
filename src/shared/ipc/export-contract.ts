import { z } from 'zod';
import { exportFormatSchema, exportOptionsSchema } from '../export-options';

/** Exports over the contract (issue #6): preview, save one, export many into a folder. */
const path = z.string().trim().min(1, 'Enter where to save the export.').max(4096);
const id = z.string().min(1).max(100);

export const exportCapabilitiesSchema = z.object({
  /** True where the OS save and folder dialogs exist (the desktop app); else the page asks for a path. */
  nativeDialogs: z.boolean(),
  /** Where exports go unless the user says otherwise. */
  defaultFolder: z.string(),
});
export type ExportCapabilities = z.infer<typeof exportCapabilitiesSchema>;

export const exportPreviewSchema = z.object({
  /** The first page as plain text lines: the renderer shows them as text, never as HTML. */
  lines: z.array(z.string()),
  warnings: z.array(z.string()),
  /** A file name for this transcript in this format, for the save dialog or path field. */
  fileName: z.string(),
});
export type ExportPreview = z.infer<typeof exportPreviewSchema>;

export const exportItemResultSchema = z.object({
  id: z.string(),
  title: z.string(),
  ok: z.boolean(),
  /** Where the file went (when ok). */
  path: z.string().optional(),
  /** Why it failed, in the user's words (when not ok). */
  message: z.string().optional(),
  warnings: z.array(z.string()),
  ms: z.number(),
});
export type ExportItemResult = z.infer<typeof exportItemResultSchema>;

export const exportProgressSchema = exportItemResultSchema.extend({
  batchId: z.string(),
  /** 1-based position of this transcript in the batch. */
  index: z.number().int(),
  total: z.number().int(),
});
export type ExportProgress = z.infer<typeof exportProgressSchema>;

export const exportContract = {
  'export.capabilities': { input: z.undefined(), output: exportCapabilitiesSchema },
  'export.preview': {
    input: z.object({ id, format: exportFormatSchema, options: exportOptionsSchema }).strict(),
    output: exportPreviewSchema,
  },
  'export.chooseFile': {
    input: z.object({ format: exportFormatSchema, fileName: z.string().min(1).max(300) }).strict(),
    output: z.object({ path: z.string().nullable() }),
  },
  'export.chooseFolder': { input: z.undefined(), output: z.object({ path: z.string().nullable() }) },
  'export.save': {
    input: z
      .object({
        id,
        format: exportFormatSchema,
        options: exportOptionsSchema,
        path,
        /** Replace a file already there: the user said so (the OS save dialog, or Replace). */
        replace: z.boolean().optional(),
      })
      .strict(),
    output: z.object({ path: z.string(), warnings: z.array(z.string()) }),
  },
  'export.batch': {
    input: z
      .object({
        /** Chosen by the caller so it can match progress events that arrive before the answer. */
        batchId: z.string().min(1).max(100),
        ids: z.array(id).min(1, 'Select at least one transcript.').max(1000),
        format: exportFormatSchema,
        options: exportOptionsSchema,
        folder: path,
      })
      .strict(),
    output: z.object({ results: z.array(exportItemResultSchema) }),
  },
} as const;

export const exportEvents = {
  /** One transcript of a batch export is done (or failed). */
  'export.progress': exportProgressSchema,
} as const;
