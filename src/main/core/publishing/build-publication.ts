import { VerbatimError } from '../../../shared/errors';
import { redactionReadsWords } from '../../../shared/redaction';
import { loadExportTranscript } from '../export/library-export';
import type { Library, NewsroomPublicationRecord, PublicationContent } from '../library/library';
import { publicationSchema } from '../newsroom/publication';
import {
  describePublishedRecording,
  openPublishedRecording,
  type PublishedAudioSources,
} from './published-audio';

/** Where and how the reporter publishes a transcript. */
export interface PublishOptions {
  desk: string;
  confidential: boolean;
  withAudio: boolean;
}

const contentSchema = publicationSchema.omit({ revision: true });

/**
 * What the newsroom archive receives of a finished transcript (publication.ts), read as an
 * export reads it (loadExportTranscript): the sentences as corrected and, for a redacted
 * transcript, as redacted — never the service's unredacted words or its analyses. A highlight
 * whose every word a correction deleted is left out: its last words are ones the reporter took
 * out of the transcript. With `withAudio`, `audio` describes the recording as published (as its
 * player plays it: redacted when the transcript is); a recording that cannot be sent leaves it
 * null, and `audioNote` says why.
 */
export async function buildPublication(
  library: Library,
  id: string,
  options: PublishOptions,
  sources?: PublishedAudioSources,
): Promise<{ content: PublicationContent; audioNote: string | null }> {
  const desk = options.desk.trim();
  if (!desk || desk.length > 50)
    throw new VerbatimError('invalid_input', 'Name the desk to publish to, in at most 50 characters.', {
      id,
    });
  const exported = await loadExportTranscript(library, id);
  const [job, json, highlights, labels, corrections, paragraphs] = await Promise.all([
    library.requireJob(id),
    library.transcriptJson(id),
    library.highlightsOf(id),
    library.highlightLabels(),
    library.correctionState(id),
    library.paragraphs(id, { words: false }),
  ]);
  let audio: PublicationContent['audio'] = null;
  let audioNote: string | null = null;
  if (options.withAudio) {
    if (!sources) throw new Error('Publishing with audio needs the library’s recordings.');
    const opened = await openPublishedRecording(sources, id, exported.title);
    if (opened.ok)
      try {
        audio = await describePublishedRecording(opened.file);
      } finally {
        await opened.file.close();
      }
    else audioNote = opened.why;
  }
  const labelNames = new Map(labels.map((label) => [label.id, label.name]));
  // The library's placeholder ("Speaker A") is the service's label, not a name the reporter gave.
  const named = new Map(
    job.speakers.map((speaker) => [
      speaker.label,
      speaker.name === `Speaker ${speaker.label}` ? null : speaker.name,
    ]),
  );
  for (const sentence of exported.sentences)
    if (sentence.speaker !== null && !named.has(sentence.speaker)) named.set(sentence.speaker, null);
  const content = contentSchema.safeParse({
    transcriptId: id,
    desk,
    confidential: options.confidential,
    title: exported.title,
    recordedAt: exported.createdAt,
    languageCode: exported.languageCode,
    durationMs: exported.audioDurationMs,
    redacted: redactionReadsWords(json ?? null),
    speakers: [...named].map(([label, name]) => ({ label, name })),
    tags: job.tags,
    sentences: exported.sentences,
    highlights: highlights
      .filter((highlight) => !highlight.missing)
      .map((highlight) => ({
        startMs: highlight.startMs,
        endMs: highlight.endMs,
        label: labelNames.get(highlight.labelId) ?? '',
        note: highlight.note,
        text: highlight.text,
        speaker: highlight.speakerName ?? highlight.speaker,
      })),
    // Who checked them is the publishing login, which the archive writes; the spans let a copy place them.
    checkedParagraphs: corrections.checks.map(({ paragraph, checkedAt }) => ({ paragraph, checkedAt })),
    paragraphs: paragraphs.map(({ startMs, endMs }) => ({ startMs, endMs })),
    audio,
  });
  if (!content.success) {
    const issue = content.error.issues[0];
    throw new VerbatimError(
      'invalid_input',
      `"${exported.title}" cannot be published as it is (${issue?.path.join('.') || 'its content'}: ${issue?.message.replace(/\.$/, '') ?? 'not valid'}): shorten it and publish again.`,
      { id },
    );
  }
  return { content: content.data, audioNote };
}

/**
 * Publishes the transcript offline first: its publication goes into the library's outbox as
 * the transcript's next revision, in one transaction with its 'waiting' state; the sender takes
 * it to the newsroom when it can be reached.
 */
export async function publishTranscript(
  library: Library,
  id: string,
  options: PublishOptions,
  sources?: PublishedAudioSources,
): Promise<NewsroomPublicationRecord> {
  const { content, audioNote } = await buildPublication(library, id, options, sources);
  return library.queueNewsroomPublish(content, options.withAudio, audioNote);
}

/** Takes the transcript out of the newsroom archive, through the outbox as a publish goes. */
export function unpublishTranscript(library: Library, id: string): Promise<NewsroomPublicationRecord> {
  return library.queueNewsroomUnpublish(id);
}
