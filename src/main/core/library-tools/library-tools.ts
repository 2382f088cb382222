import { z } from 'zod';
import type { Library } from '../library/library';
import { hhmmss } from '../export/export-model';

/**
 * Tools that let a language model (Ask) or the voice agent read the reporter's local library.
 * Both speak JSON Schema for parameters and JSON for results, so one definition serves both:
 * the gateway's `tools` array and the voice agent's `session.update` tools are built from
 * `toolDefinitions`, and a call from either is answered by `runTool`.
 *
 * A tool never throws at the model: bad arguments or a missing transcript come back as
 * `{ error }`, which the model can read and recover from, as both services expect.
 */
export interface LibraryTool<Args extends z.ZodType = z.ZodType> {
  name: string;
  description: string;
  args: Args;
  run(library: Library, args: z.output<Args>): Promise<unknown>;
}

/** The longest passage one call may read: ten minutes keeps an answer within a model's context. */
export const maxPassageMs = 10 * 60_000;

const searchArgs = z.object({
  query: z.string().min(1).max(500).describe('Words or a phrase to find, as the reporter said them.'),
  limit: z.number().int().min(1).max(20).optional().describe('How many quotes to return (default 5).'),
});

const passageArgs = z
  .object({
    transcript_id: z.string().min(1).max(100).describe('The id of a transcript from the library.'),
    start_ms: z.number().int().min(0).describe('Start of the passage, in milliseconds.'),
    end_ms: z.number().int().min(1).describe('End of the passage, in milliseconds.'),
  })
  .refine((a) => a.end_ms > a.start_ms, { message: 'end_ms must be after start_ms' })
  .refine((a) => a.end_ms - a.start_ms <= maxPassageMs, {
    message: `a passage can be at most ${maxPassageMs / 60_000} minutes long`,
  });

const recentArgs = z.object({
  limit: z.number().int().min(1).max(50).optional().describe('How many transcripts (default 10).'),
});

const searchLibrary: LibraryTool<typeof searchArgs> = {
  name: 'search_library',
  description:
    "Full-text search over every transcript in the reporter's library. Returns matching quotes with the transcript, speaker and time.",
  args: searchArgs,
  async run(library, { query, limit }) {
    const page = await library.search(query, {}, { limit: limit ?? 5 });
    return {
      total: page.total,
      quotes: page.hits.map((hit) => ({
        transcript_id: hit.transcriptId,
        transcript_title: hit.transcriptTitle,
        speaker: hit.speakerName ?? (hit.speaker ? `Speaker ${hit.speaker}` : null),
        start_ms: hit.startMs,
        end_ms: hit.endMs,
        time: hhmmss(hit.startMs),
        quote: hit.snippet.map((part) => part.text).join(''),
      })),
    };
  },
};

const readPassage: LibraryTool<typeof passageArgs> = {
  name: 'read_passage',
  description:
    'Reads what was said in one transcript between two times, sentence by sentence with speakers and times.',
  args: passageArgs,
  async run(library, { transcript_id: id, start_ms: startMs, end_ms: endMs }) {
    const job = await library.get(id);
    if (!job) return { error: `There is no transcript with id ${id} in the library.` };
    const names = new Map(job.speakers.map((s) => [s.label, s.name ?? `Speaker ${s.label}`]));
    const sentences = (await library.sentences(id)).filter((s) => s.endMs > startMs && s.startMs < endMs);
    return {
      transcript_id: id,
      transcript_title: job.title,
      sentences: sentences.map((s) => ({
        speaker: s.speaker ? (names.get(s.speaker) ?? `Speaker ${s.speaker}`) : null,
        start_ms: s.startMs,
        time: hhmmss(s.startMs),
        text: s.text,
      })),
    };
  },
};

const listRecent: LibraryTool<typeof recentArgs> = {
  name: 'list_recent_transcripts',
  description: 'Lists the most recent transcripts in the library, newest first, with their ids and status.',
  args: recentArgs,
  async run(library, { limit }) {
    const jobs = await library.list({ limit: limit ?? 10 });
    return {
      transcripts: jobs.map((job) => ({
        id: job.id,
        title: job.title,
        status: job.status,
        created_at: new Date(job.createdAt).toISOString(),
        duration: job.audioDurationMs === null ? null : hhmmss(job.audioDurationMs),
        speakers: job.speakers.map((s) => s.name ?? `Speaker ${s.label}`),
      })),
    };
  },
};

export const libraryTools: readonly LibraryTool[] = [searchLibrary, readPassage, listRecent] as LibraryTool[];

/** A tool as both services describe it: a name, what it does, and its parameters as JSON Schema. */
export interface ToolDefinition {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

export function toolDefinition(tool: LibraryTool): ToolDefinition {
  const { $schema: _schema, ...parameters } = z.toJSONSchema(tool.args, { io: 'input' }) as Record<
    string,
    unknown
  >;
  return { name: tool.name, description: tool.description, parameters };
}

export const toolDefinitions = (tools: readonly LibraryTool[] = libraryTools): ToolDefinition[] =>
  tools.map(toolDefinition);

/**
 * Runs a tool call the model made. Arguments arrive as an object or as a JSON string (the
 * gateway sends OpenAI-style strings); whatever goes wrong becomes `{ error }` for the model.
 */
export async function runTool(
  library: Library,
  name: string,
  rawArgs: unknown,
  tools: readonly LibraryTool[] = libraryTools,
): Promise<unknown> {
  const tool = tools.find((candidate) => candidate.name === name);
  if (!tool) return { error: `There is no tool named ${name}.` };
  let args: unknown = rawArgs ?? {};
  if (typeof args === 'string') {
    try {
      args = args.trim() === '' ? {} : (JSON.parse(args) as unknown);
    } catch {
      return { error: `The arguments for ${name} are not valid JSON.` };
    }
  }
  const parsed = tool.args.safeParse(args);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || 'arguments'}: ${i.message}`);
    return { error: `Invalid arguments for ${name}: ${issues.join('; ')}` };
  }
  try {
    return await tool.run(library, parsed.data);
  } catch (error) {
    return { error: `${name} failed: ${error instanceof Error ? error.message : String(error)}` };
  }
}
