import { z } from 'zod';

/**
 * The export choices a journalist makes, shared by the export dialog, the IPC contract, the
 * remembered settings and the CLI, so each checks them by the same rules.
 */
export const exportFormats = ['docx', 'pdf', 'md', 'txt', 'srt', 'vtt', 'json', 'csv'] as const;
export const exportFormatSchema = z.enum(exportFormats);
export type ExportFormat = z.infer<typeof exportFormatSchema>;

/** What each format is called in menus and save dialogs. */
export const exportFormatLabels: Record<ExportFormat, string> = {
  docx: 'Word document (.docx)',
  pdf: 'PDF (.pdf)',
  md: 'Markdown (.md)',
  txt: 'Plain text (.txt)',
  srt: 'Subtitles, SRT (.srt)',
  vtt: 'Subtitles, WebVTT (.vtt)',
  json: 'JSON (.json)',
  csv: 'Spreadsheet, CSV (.csv)',
};

export const subtitleFormats: readonly ExportFormat[] = ['srt', 'vtt'];
export const isSubtitleFormat = (format: ExportFormat): boolean => subtitleFormats.includes(format);

export const timestampOptionSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('none') }).strict(),
  z.object({ kind: z.literal('paragraph') }).strict(),
  z.object({ kind: z.literal('sentence') }).strict(),
  z
    .object({
      kind: z.literal('every'),
      seconds: z
        .number()
        .int('Give the timestamp interval in whole seconds.')
        .min(1, 'Timestamps can come at most every second.')
        .max(3600, 'Timestamps must come at least once an hour.'),
    })
    .strict(),
]);

export const exportRangeSchema = z
  .object({
    startMs: z.number().int().min(0),
    endMs: z.number().int().min(1),
    /** Every sentence with a word in the range, whole (what `export --range` writes). */
    wholeSentences: z.boolean().optional(),
  })
  .strict()
  .refine((r) => r.endMs > r.startMs, { message: 'The excerpt must end after it starts.' });

export const subtitleOptionsSchema = z
  .object({
    charsPerLine: z
      .number()
      .int()
      .min(20, 'A caption line needs at least 20 characters.')
      .max(80, 'A caption line can hold at most 80 characters.')
      .default(42),
    maxLines: z.number().int().min(1).max(2, 'Captions can have at most 2 lines.').default(2),
    maxDurationMs: z
      .number()
      .int()
      .min(1000, 'A caption must be allowed at least 1 second on screen.')
      .max(20_000, 'A caption can stay at most 20 seconds on screen.')
      .default(7000),
    minGapMs: z.number().int().min(0).max(2000, 'Keep the gap between captions under 2 seconds.').default(80),
  })
  .strict();
export type SubtitleSettings = z.infer<typeof subtitleOptionsSchema>;

export const exportOptionsSchema = z
  .object({
    unit: z.enum(['sentences', 'paragraphs', 'turns']).default('paragraphs'),
    timestamps: timestampOptionSchema.default({ kind: 'paragraph' }),
    speakerNames: z.boolean().default(true),
    header: z.boolean().default(true),
    appendix: z.boolean().default(false),
    /** false uses the unredacted words where the service returned them. */
    redacted: z.boolean().default(true),
    /** Only a quote: the words mostly inside this span. Never remembered between exports. */
    range: exportRangeSchema.optional(),
    subtitles: subtitleOptionsSchema.default(() => subtitleOptionsSchema.parse({})),
  })
  .strict();
export type ExportSettings = z.output<typeof exportOptionsSchema>;
export type ExportSettingsInput = z.input<typeof exportOptionsSchema>;

export const defaultExportSettings: ExportSettings = exportOptionsSchema.parse({});

/** The options a format opens with: what the user chose last time for it, else the defaults. */
export function rememberedExportSettings(
  remembered: Partial<Record<ExportFormat, ExportSettings>> | undefined,
  format: ExportFormat,
): ExportSettings {
  const found = remembered?.[format];
  return found ? { ...found, range: undefined } : defaultExportSettings;
}
