import { z } from 'zod';

/**
 * How a story is exported (issue #20): the file format, the citation style written after each
 * quote and whether a list of sources ends the document. Shared by main, the contract, the CLI
 * and the renderer, so the citation style is checked with the same words everywhere.
 */

export const storyExportFormats = ['docx', 'pdf', 'md', 'txt'] as const;
export const storyExportFormatSchema = z.enum(storyExportFormats);
export type StoryExportFormat = z.infer<typeof storyExportFormatSchema>;

/** The facts a citation can name. */
export const citationPlaceholders = ['speaker', 'title', 'date', 'time'] as const;
export type CitationPlaceholder = (typeof citationPlaceholders)[number];

/** `— Mayor Elena Alvarez, “Interview about the ferry contract”, Mar 14, 2025, 00:12:31` */
export const defaultCitationTemplate = '{speaker}, “{title}”, {date}, {time}';

export const citationTemplateMaxLength = 300;

const knownList = 'Use {speaker}, {title}, {date} or {time}.';

/**
 * What is wrong with a citation style, in the journalist's words, or undefined when it is fine.
 * Every `{…}` must name a known fact, and every brace must be part of one: a stray brace is
 * almost always a typo that would otherwise be printed after every quote.
 */
export function citationTemplateProblem(template: string): string | undefined {
  if (template.trim() === '') return `The citation style is empty. ${knownList}`;
  if (template.length > citationTemplateMaxLength)
    return `The citation style is longer than ${citationTemplateMaxLength} characters.`;
  const unknown: string[] = [];
  const rest = template.replace(/\{([^{}]*)\}/g, (whole, name: string) => {
    if (!(citationPlaceholders as readonly string[]).includes(name)) unknown.push(whole);
    return '';
  });
  if (unknown.length === 1)
    return `The citation style has ${unknown[0]}, which is not a fact Verbatim knows. ${knownList}`;
  if (unknown.length > 1)
    return `The citation style has ${unknown.join(', ')}, which are not facts Verbatim knows. ${knownList}`;
  if (rest.includes('{') || rest.includes('}'))
    return `The citation style has a brace without its partner: write each fact as {speaker}, {title}, {date} or {time}.`;
  return undefined;
}

export const citationTemplateSchema = z.string().superRefine((template, ctx) => {
  const problem = citationTemplateProblem(template);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

export const storyExportOptionsSchema = z
  .object({
    citation: citationTemplateSchema.default(defaultCitationTemplate),
    /** A "Sources" list at the end: each transcript once, with its date and its quotes' times. */
    sourceList: z.boolean().default(false),
    /** The time zone recording dates are written in; the machine's own when absent. */
    timeZone: z.string().max(100).optional(),
  })
  .strict();
export type StoryExportOptionsInput = z.input<typeof storyExportOptionsSchema>;
export type StoryExportOptions = z.output<typeof storyExportOptionsSchema>;
