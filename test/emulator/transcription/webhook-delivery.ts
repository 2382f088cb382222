import type { TranscriptionState, TranscriptRecord } from './transcription-state';

/** The spec's delivery rules: answer within 10 s, up to 10 attempts, 10 s apart. */
const WEBHOOK_TIMEOUT_MS = 10_000;
const WEBHOOK_MAX_ATTEMPTS = 10;
const WEBHOOK_RETRY_DELAY_MS = 10_000;

/**
 * POSTs `{transcript_id, status}` to the transcript's webhook_url once it is completed or
 * failed. A 2xx ends the delivery, a 4xx fails it at once, anything else (5xx, no answer in
 * time, connection refused) is retried. Each status code received is stored on the
 * transcript as `webhook_status_code`. Times are emulated, so --speed shortens them.
 */
export async function deliverWebhook(state: TranscriptionState, record: TranscriptRecord): Promise<void> {
  const {
    webhook_url: webhookUrl,
    webhook_auth_header_name: name,
    webhook_auth_header_value: value,
  } = record.params;
  if (!webhookUrl) return;
  const signal = state.signal;
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (name && value != null) headers[name] = value;
  const body = JSON.stringify({ transcript_id: record.id, status: record.status });

  for (let attempt = 1; attempt <= WEBHOOK_MAX_ATTEMPTS; attempt += 1) {
    const timeout = new AbortController();
    const stopTimer = state.after(WEBHOOK_TIMEOUT_MS, () => timeout.abort());
    try {
      // The URL is used as given, so the caller's query parameters reach the receiver.
      const response = await fetch(webhookUrl, {
        method: 'POST',
        headers,
        body,
        redirect: 'manual',
        signal: AbortSignal.any([signal, timeout.signal]),
      });
      await response.body?.cancel();
      record.webhookStatusCode = response.status;
      if (response.status >= 200 && response.status < 300) return;
      if (response.status >= 400 && response.status < 500) return;
    } catch {
      // No answer (refused, reset or too slow): retried like a 5xx.
    } finally {
      stopTimer();
    }
    if (signal.aborted) return;
    if (attempt < WEBHOOK_MAX_ATTEMPTS) await state.sleep(WEBHOOK_RETRY_DELAY_MS);
  }
}
