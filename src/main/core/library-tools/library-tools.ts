import { z } from 'zod';
import type { Library } from '../library/library';
import type { SearchFilters, SearchHit } from '../../../shared/library';
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
  speaker: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe('Only what this speaker said: a name or part of one, as the reporter said it ("the mayor").'),
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
    "Finds what was said, and by whom, in every transcript of the reporter's library (full-text search). Returns matching quotes with the transcript, speaker and time.",
  args: searchArgs,
  async run(library, { query, speaker, limit }) {
    let filters: SearchFilters[] = [{}];
    if (speaker !== undefined) {
      const names = speakersCalled(speaker, await library.speakerNames());
      if (names.length === 0) {
        return {
          error: `No speaker in the library is called ${speaker}. Search again without a speaker, or with a name the reporter gave one.`,
        };
      }
      filters = names.map((name) => ({ speaker: name }));
    }
    const wanted = limit ?? 5;
    const every = await searchEach(library, [query], filters, wanted);
    // Said aloud, a question has more words than any one sentence holds: rather than nothing,
    // the sentences with the most of them, and a note that not every word was found. A word is
    // what spaces separate: "mayor@porthollow.gov" stays one, all of whose parts must match.
    const words = [...new Set(query.split(/\s+/).filter((word) => queryWords(word).length > 0))];
    const some =
      every.total === 0 && words.length > 1 ? await searchEach(library, words, filters, wanted) : null;
    const found = some && some.total > 0 ? some : every;
    return {
      total: found.total,
      ...(found === some ? { note: `No quote has every word of "${query}"; these have some of them.` } : {}),
      quotes: found.hits.slice(0, wanted).map((hit) => ({
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

/** The words of a query, as the library's search splits them. */
function queryWords(text: string): string[] {
  return text.match(/[\p{L}\p{N}\p{M}]+/gu) ?? [];
}

/**
 * The names (or labels: "speaker B") a spoken speaker means: every word said, bar an article,
 * is a word of the name, ignoring case ("the mayor" is "Mayor Elena Alvarez").
 */
export function speakersCalled(spoken: string, names: readonly string[]): string[] {
  const label = /^\s*speaker\s+([a-z])\s*$/i.exec(spoken);
  if (label?.[1]) return [label[1].toUpperCase()];
  const said = queryWords(spoken.toLocaleLowerCase()).filter((word) => !ARTICLES.has(word));
  if (said.length === 0) return [];
  return names.filter((name) => {
    const words = new Set(queryWords(name.toLocaleLowerCase()));
    return said.every((word) => words.has(word));
  });
}

const ARTICLES = new Set(['the', 'a', 'an']);

/**
 * Searches for each query under each filter and merges the hits: a sentence found by more of
 * the queries first, then in the order the searches ranked them. `total` is how many sentences
 * match one query (the filters' speakers say different sentences); for several queries, how
 * many different sentences their first pages hold.
 */
async function searchEach(
  library: Library,
  queries: string[],
  filters: SearchFilters[],
  limit: number,
): Promise<{ total: number; hits: SearchHit[] }> {
  const found = new Map<string, { hit: SearchHit; queries: number; order: number }>();
  let matches = 0;
  for (const query of queries) {
    for (const filter of filters) {
      const page = await library.search(query, filter, { limit });
      matches += page.total;
      for (const hit of page.hits) {
        const key = `${hit.transcriptId}\u0000${hit.sentencePosition}`;
        const seen = found.get(key);
        if (seen) seen.queries += 1;
        else found.set(key, { hit, queries: 1, order: found.size });
      }
    }
  }
  const hits = [...found.values()]
    .sort((a, b) => b.queries - a.queries || a.order - b.order)
    .map((entry) => entry.hit);
  return { total: queries.length === 1 ? matches : hits.length, hits };
}

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
 * gateway sends OpenAI-style strings); whatever goes wrong becomes `{ error }` for the model,
 * a sentence that says what to change (see toolResultText).
 */
export async function runTool(
  library: Library,
  name: string,
  rawArgs: unknown,
  tools: readonly LibraryTool[] = libraryTools,
): Promise<unknown> {
  const tool = tools.find((candidate) => candidate.name === name);
  if (!tool) {
    const known = tools.map((candidate) => candidate.name).join(', ');
    return { error: `There is no tool named ${name}. The tools are: ${known}.` };
  }
  let args: unknown = rawArgs ?? {};
  if (typeof args === 'string') {
    try {
      args = args.trim() === '' ? {} : (JSON.parse(args) as unknown);
    } catch {
      return { error: `The arguments for ${name} are not valid JSON. Send them again as a JSON object.` };
    }
  }
  const parsed = tool.args.safeParse(args);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => describeIssue(issue, args));
    return { error: `${name} was not run: ${issues.join('; ')}. Call it again with corrected arguments.` };
  }
  try {
    return await tool.run(library, parsed.data);
  } catch (error) {
    return { error: `${name} failed: ${error instanceof Error ? error.message : String(error)}` };
  }
}

/**
 * What goes back to the model for a tool's result: an error as its sentence, which a model
 * (or a voice agent reading it out) acts on, never as a JSON object; anything else as JSON.
 */
export function toolResultText(result: unknown): string {
  if (isToolError(result)) return result.error;
  if (typeof result === 'string') return result;
  return JSON.stringify(result) ?? '';
}

function isToolError(result: unknown): result is { error: string } {
  return (
    typeof result === 'object' && result !== null && typeof (result as { error?: unknown }).error === 'string'
  );
}

const KIND_NAMES: Record<string, string> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  array: 'a list',
  object: 'an object',
};

/** One argument's problem as words: "end_ms must be at least 1", "query is missing". */
function describeIssue(issue: z.core.$ZodIssue, args: unknown): string {
  const field = issue.path.map(String).join('.');
  const subject = field || 'the arguments';
  switch (issue.code) {
    case 'invalid_type':
      return valueAt(args, issue.path) === undefined
        ? `${subject} is missing`
        : `${subject} must be ${KIND_NAMES[issue.expected] ?? issue.expected}`;
    case 'too_small':
      return `${subject} ${bound(issue.origin, 'least', issue.inclusive !== false, issue.minimum)}`;
    case 'too_big':
      return `${subject} ${bound(issue.origin, 'most', issue.inclusive !== false, issue.maximum)}`;
    default:
      return field ? `${field}: ${issue.message}` : issue.message;
  }
}

/** "must be at least 1", "must not be empty", "must be at most 500 characters long"… */
function bound(origin: string, side: 'least' | 'most', inclusive: boolean, limit: number | bigint): string {
  if (origin === 'string') {
    return side === 'least' && limit === 1
      ? 'must not be empty'
      : `must be at ${side} ${limit} characters long`;
  }
  if (origin === 'array') return `must have at ${side} ${limit} items`;
  if (!inclusive) return `must be ${side === 'least' ? 'more' : 'less'} than ${limit}`;
  return `must be at ${side} ${limit}`;
}

function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let here = value;
  for (const key of path) {
    if (typeof here !== 'object' || here === null) return undefined;
    here = (here as Record<PropertyKey, unknown>)[key];
  }
  return here;
}
