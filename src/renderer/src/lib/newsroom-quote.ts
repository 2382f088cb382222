import { formatCitation, timeInRecording, unknownSpeaker } from '../../../shared/citation';
import type { NewsroomTranscript } from '../../../shared/newsroom-search';
import { inQuotationMarks } from '../../../shared/quotation-marks';
import { recordedBy } from './newsroom-hit';

type Sentence = NewsroomTranscript['sentences'][number];

/** The name the reporter gave a speaker of their transcript, or its label. */
export function newsroomSpeaker(transcript: NewsroomTranscript, label: string | null): string {
  if (label === null) return unknownSpeaker;
  const speaker = transcript.speakers.find((each) => each.label === label);
  return speaker?.name?.trim() || `Speaker ${label}`;
}

/**
 * What Copy quote puts on the clipboard from a colleague's transcript: the words exactly as
 * published, in their language's quotation marks, and a citation that names the reporter who
 * recorded them (issue #35, point 6).
 */
export function newsroomQuote(transcript: NewsroomTranscript, sentence: Sentence): string {
  const citation = formatCitation({
    speakerName: newsroomSpeaker(transcript, sentence.speaker),
    transcriptId: transcript.transcriptId,
    transcriptTitle: transcript.title,
    recordedAt: transcript.recordedAt,
    startMs: sentence.startMs,
    recordedBy: { reporter: transcript.reporter, desk: transcript.desk },
  });
  const words = inQuotationMarks(sentence.text.trim().replace(/\s+/g, ' '), transcript.languageCode);
  return `${words} — ${citation}`;
}

/** The whole transcript as plain text, headed by where it comes from and who recorded it. */
export function newsroomTranscriptText(transcript: NewsroomTranscript): string {
  const head = `${transcript.title}\nFrom the newsroom: ${recordedBy(transcript.reporter, transcript.desk)}, revision ${transcript.revision}\n`;
  const lines = transcript.sentences.map(
    (sentence) =>
      `[${timeInRecording(sentence.startMs)}] ${newsroomSpeaker(transcript, sentence.speaker)}: ${sentence.text}`,
  );
  return `${head}\n${lines.join('\n')}\n`;
}
