import type { AskEntry, AskTemplate } from '../../../shared/ask';
import { api } from '../lib/api';
import type { Problem } from '../lib/error-message';
import { caught } from '../lib/report-problem';

/** The answer being written: its request id and the text streamed so far. */
export interface StreamingAnswer {
  requestId: string;
  text: string;
}

/**
 * Ask for one open transcript: the saved conversation, the answer streaming in, the controls
 * (model, temperature, length) and the ready-made asks. Main saves every entry; this store
 * shows each as its event arrives, so the conversation reads the same after a restart.
 */
export class AskStore {
  entries = $state.raw<AskEntry[]>([]);
  templates = $state.raw<AskTemplate[]>([]);
  streaming = $state<StreamingAnswer | undefined>(undefined);
  /** Empty: the model from Settings (or the catalog's "Use for Ask"). */
  model = $state('');
  temperature = $state(0.3);
  maxTokens = $state(1000);
  error = $state<Problem | undefined>(undefined);
  notice = $state('');

  constructor(readonly transcriptId: string) {}

  async load(): Promise<void> {
    try {
      const [conversation, templates] = await Promise.all([
        api.ask.conversation({ transcriptId: this.transcriptId }),
        api.ask.templates(),
      ]);
      this.entries = conversation.entries;
      this.templates = templates.templates;
    } catch (error) {
      this.error = caught(error, 'ask.conversation');
    }
  }

  /** Follows this transcript's answers as they stream; returns the unsubscribe. */
  listen(): () => void {
    const stops = [
      api.on('ask.delta', (event) => {
        if (this.streaming?.requestId === event.requestId) this.streaming.text += event.text;
      }),
      api.on('ask.entry', (event) => {
        if (event.transcriptId !== this.transcriptId) return;
        if (this.entries.some((entry) => entry.id === event.entry.id)) return;
        this.entries = [...this.entries, event.entry];
        if (event.entry.kind === 'answer' && this.streaming?.requestId === event.requestId)
          this.streaming = undefined;
      }),
    ];
    return () => {
      for (const stop of stops) stop();
    };
  }

  get busy(): boolean {
    return this.streaming !== undefined;
  }

  async ask(question: string, template?: AskTemplate): Promise<void> {
    if (this.busy || !question.trim()) return;
    this.error = undefined;
    const requestId = crypto.randomUUID();
    this.streaming = { requestId, text: '' };
    try {
      await api.ask.send({
        requestId,
        transcriptId: this.transcriptId,
        question,
        format: template?.format ?? 'text',
        ...(template ? { label: template.label } : {}),
        ...(this.model.trim() ? { model: this.model.trim() } : {}),
        temperature: this.temperature,
        maxTokens: this.maxTokens,
        stream: true,
      });
    } catch (error) {
      this.error = caught(error, 'ask.send');
    } finally {
      if (this.streaming?.requestId === requestId) this.streaming = undefined;
    }
  }

  async stop(): Promise<void> {
    const current = this.streaming;
    if (!current) return;
    try {
      await api.ask.stop({ requestId: current.requestId });
    } catch (error) {
      this.error = caught(error, 'ask.stop');
    }
  }

  async clear(): Promise<void> {
    try {
      await api.ask.clear({ transcriptId: this.transcriptId });
      this.entries = [];
      this.notice = 'Conversation cleared.';
    } catch (error) {
      this.error = caught(error, 'ask.clear');
    }
  }

  async saveTemplate(template: AskTemplate): Promise<void> {
    try {
      const next = this.templates.map((t) => (t.id === template.id ? template : t));
      this.templates = (await api.ask.saveTemplates({ templates: next })).templates;
      this.notice = `Saved "${template.label}".`;
    } catch (error) {
      this.error = caught(error, 'ask.saveTemplates');
    }
  }
}
