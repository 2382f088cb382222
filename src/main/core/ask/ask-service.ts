import type { AskEntry, AskFormat, AskTemplate } from '../../../shared/ask';
import { VerbatimError } from '../../../shared/errors';
import type { Region } from '../../../shared/library';
import type { GatewayClient } from '../gateway/gateway-client';
import type { Library } from '../library/library';
import { runTool, toolDefinitions } from '../library-tools/library-tools';
import { Signal } from '../../base/signal';
import { ask, correctedTranscriptText, type AskRequest } from './ask-engine';
import type { AskConversationStore } from '../library/ask-conversation-store';
import { randomUUID } from 'node:crypto';
import type { Core } from '../app-core';
import { systemClock, type Clock } from '../../base/clock';
import type { FetchLike } from '../http/http-client';
import type { NetworkBounds } from '../http/network-bounds';
import { gatewayResolver } from '../gateway/gateway-for-region';
import { alignTimes, type TimedSentence } from './quote-times';

export interface AskSettings {
  askModel: string;
  askFallbackModels: string[];
  askTemplates: AskTemplate[];
}

export interface AskQuestion {
  /** Chosen by the caller, so it can listen for this answer's deltas before asking. */
  requestId: string;
  transcriptId: string;
  question: string;
  format?: AskFormat;
  /** The JSON Schema of a `json` answer. */
  jsonSchema?: Record<string, unknown>;
  label?: string;
  model?: string;
  temperature?: number;
  maxTokens?: number;
  stream?: boolean;
}

export type AskEvent =
  | { type: 'delta'; requestId: string; transcriptId: string; text: string }
  | { type: 'entry'; requestId: string; transcriptId: string; entry: AskEntry }
  | { type: 'done'; requestId: string; transcriptId: string };

/**
 * Ask for the app, the web host and the CLI: finds the transcript, asks through the gateway of
 * its region, saves every entry as it comes and announces it, and stops on request.
 */
export class AskService {
  readonly events = new Signal<AskEvent>();
  private readonly running = new Map<string, AbortController>();

  constructor(
    private readonly options: {
      library: Library;
      store: AskConversationStore;
      gatewayFor: (region: Region) => GatewayClient;
      settings: () => Promise<AskSettings>;
      now: () => number;
      newId: () => string;
    },
  ) {}

  async conversation(transcriptId: string): Promise<AskEntry[]> {
    await this.options.library.requireJob(transcriptId);
    return this.options.store.list(transcriptId);
  }

  async clear(transcriptId: string): Promise<number> {
    await this.options.library.requireJob(transcriptId);
    return this.options.store.clear(transcriptId);
  }

  /**
   * The service's copy by its id, or the corrected text when the journalist has corrected the
   * transcript: the service's stored copy does not know local corrections.
   */
  private async transcriptFor(
    transcriptId: string,
    remoteId: string,
    names: Map<string, string>,
  ): Promise<AskRequest['transcript']> {
    const { library } = this.options;
    if (!(await library.hasCorrections(transcriptId))) return { remoteId };
    return {
      correctedText: correctedTranscriptText(
        await library.sentences(transcriptId),
        (label) => names.get(label) ?? `Speaker ${label}`,
      ),
    };
  }

  /** Stops a running answer; false when it had already finished. */
  stop(requestId: string): boolean {
    const controller = this.running.get(requestId);
    controller?.abort();
    return controller !== undefined;
  }

  /** Asks and resolves with the new entries once the answer is complete, stopped or failed. */
  async send(question: AskQuestion): Promise<AskEntry[]> {
    const { library, store } = this.options;
    const job = await this.options.library.requireJob(question.transcriptId);
    if (job.status !== 'completed' || !job.remoteId) {
      throw new VerbatimError(
        'invalid_input',
        'This transcript is not finished yet. Ask about it once it has completed.',
      );
    }
    if (this.running.has(question.requestId))
      throw new VerbatimError('conflict', 'This question is already being answered.');
    const settings = await this.options.settings();
    const controller = new AbortController();
    this.running.set(question.requestId, controller);
    const { requestId, transcriptId } = question;
    const format = question.format ?? 'text';
    try {
      const names = new Map(job.speakers.map((s) => [s.label, s.name ?? `Speaker ${s.label}`]));
      const sentences: TimedSentence[] =
        format === 'quotes' || format === 'claims'
          ? (await library.sentences(transcriptId)).map((s) => ({
              startMs: s.startMs,
              text: s.text,
              speaker: s.speaker ? (names.get(s.speaker) ?? `Speaker ${s.speaker}`) : null,
            }))
          : [];
      return await ask(
        {
          transcript: await this.transcriptFor(transcriptId, job.remoteId, names),
          title: job.title,
          history: store.list(transcriptId),
          question: question.question,
          ...(question.label ? { label: question.label } : {}),
          format,
          ...(question.jsonSchema ? { jsonSchema: question.jsonSchema } : {}),
          model: question.model ?? settings.askModel,
          fallbackModels: settings.askFallbackModels,
          temperature: question.temperature,
          maxTokens: question.maxTokens,
          stream: question.stream ?? true,
          signal: controller.signal,
          onDelta: (text) => this.events.emit({ type: 'delta', requestId, transcriptId, text }),
          onEntry: (entry) => {
            const final = withRealTimes(entry, sentences);
            store.append(transcriptId, final);
            this.events.emit({ type: 'entry', requestId, transcriptId, entry: final });
          },
        },
        {
          gateway: this.options.gatewayFor(job.region),
          tools: toolDefinitions(),
          runTool: (name, args) => runTool(library, name, args),
          now: this.options.now,
          newId: this.options.newId,
        },
      ).then((entries) => entries.map((entry) => withRealTimes(entry, sentences)));
    } finally {
      this.running.delete(requestId);
      this.events.emit({ type: 'done', requestId, transcriptId });
    }
  }
}

/** Key quotes and claims carry the times of the sentences they were found in. */
function withRealTimes(entry: AskEntry, sentences: TimedSentence[]): AskEntry {
  if (entry.kind !== 'answer' || entry.structured === undefined || sentences.length === 0) return entry;
  const value = entry.structured as Record<string, unknown>;
  if (entry.format === 'quotes') {
    const quotes = value.quotes as { quote: string; speaker: string; start_ms: number }[];
    return { ...entry, structured: { ...value, quotes: alignTimes(quotes, (q) => q.quote, sentences) } };
  }
  if (entry.format === 'claims') {
    const claims = value.claims as { claim: string; speaker: string; start_ms: number }[];
    return { ...entry, structured: { ...value, claims: alignTimes(claims, (c) => c.claim, sentences) } };
  }
  return entry;
}

/** Ask over a core's library, with the gateway's address and the settings supplied by the host. */
export function createAskService(config: {
  core: Pick<Core, 'database' | 'library'>;
  apiKey: () => string | undefined;
  gatewayUrl: (region: Region) => string | undefined;
  settings: () => Promise<AskSettings>;
  clock?: Clock;
  fetch?: FetchLike;
  /** How long a silent gateway is waited for; the defaults unless set. */
  networkBounds?: NetworkBounds;
}): AskService {
  const clock = config.clock ?? systemClock;
  return new AskService({
    library: config.core.library,
    store: config.core.database.askConversations,
    gatewayFor: gatewayResolver({
      apiKey: config.apiKey,
      url: config.gatewayUrl,
      clock,
      fetch: config.fetch,
      networkBounds: config.networkBounds,
    }),
    settings: config.settings,
    now: () => clock.now(),
    newId: randomUUID,
  });
}
