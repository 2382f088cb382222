import { z } from 'zod';
import { VerbatimError } from '../../../shared/errors';
import type { Analyses } from '../../../shared/analyses';
import { analysesAsShown } from '../../../shared/redaction';
import { wordSchema, type Word } from '../../../shared/library';
import type { Library } from '../library/library';
import type { ExportAnalyses, ExportTranscript } from './export-model';

const unredactedWordsSchema = z.array(z.unknown());

/**
 * The service's unredacted words, kept only where each is well formed: the JSON came from
 * outside, and one odd word must not stop an export.
 */
function unredactedWords(transcript: Record<string, unknown> | undefined): Word[] | undefined {
  const parsed = unredactedWordsSchema.safeParse(transcript?.unredacted_words);
  if (!parsed.success) return undefined;
  const words = parsed.data.flatMap((item) => {
    const word = wordSchema.safeParse(item);
    return word.success ? [word.data] : [];
  });
  return words.length > 0 ? words : undefined;
}

/**
 * The recording's file name, not its full path or address: a folder name or a link's token can
 * say more than the reporter meant to share with an editor.
 */
function sourceName(kind: 'file' | 'url', source: string): string {
  let path = source;
  if (kind === 'url') {
    try {
      path = decodeURIComponent(new URL(source).pathname);
    } catch {
      return source;
    }
  }
  return path.split(/[\\/]/).pop() || source;
}

/**
 * Everything an export needs, read once from the library: the title and recording, the speaker
 * names the user chose, sentences and paragraphs, the unredacted words and the analyses the
 * appendix lists, redacted and (where the service kept the unredacted words) as said. Only a
 * finished transcript can be exported.
 */
export async function loadExportTranscript(library: Library, id: string): Promise<ExportTranscript> {
  const job = await library.requireJob(id);
  if (job.status !== 'completed') {
    throw new VerbatimError(
      'invalid_input',
      `"${job.title}" is not finished yet, so there is nothing to export.`,
      { id },
    );
  }
  const [sentences, paragraphs, transcript] = await Promise.all([
    library.sentences(id),
    library.paragraphs(id),
    library.transcriptJson(id),
  ]);
  const json = transcript ?? null;
  const words = unredactedWords(transcript);
  return {
    title: job.title,
    sourceName: sourceName(job.sourceKind, job.source),
    createdAt: job.createdAt,
    audioDurationMs: job.audioDurationMs,
    languageCode: job.languageCode,
    speakers: new Map(job.speakers.map((s) => [s.label, s.name ?? `Speaker ${s.label}`])),
    sentences,
    paragraphs,
    unredacted: words ? { words, analyses: appendix(analysesAsShown(json, 'original')) } : undefined,
    analyses: appendix(analysesAsShown(json, 'redacted')),
  };
}

function appendix(analyses: Analyses): ExportAnalyses {
  return {
    ...(analyses.summary ? { summary: analyses.summary } : {}),
    keyPhrases: analyses.keyPhrases.map((k) => k.text),
    entities: analyses.entities.map((e) => ({ type: e.detail, text: e.text })),
    ...(analyses.redactedEntities.length > 0 ? { redactedEntities: analyses.redactedEntities } : {}),
  };
}
