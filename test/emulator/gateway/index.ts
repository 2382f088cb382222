import { catalogFor } from '../catalog/catalog-data';
import { deterministicUuid } from '../catalog/seeded-random';
import type { EmulatorApp } from '../types';
import { handleChatCompletion, type Gateway } from './chat-completions';
import { createModelResolver } from './model-resolver';

/** The language-model gateway: POST /v1/chat/completions on the emulator's ports (US and EU). */
export function register(app: EmulatorApp): void {
  let requestCount = 0;
  app.onReset(() => {
    requestCount = 0;
  });
  const gateway: Gateway = {
    app,
    resolveModel: createModelResolver(catalogFor(app)),
    nextRequestId: () => deterministicUuid(`gateway-request:${(requestCount += 1)}`),
  };
  app.route({
    method: 'POST',
    pattern: /^\/v1\/chat\/completions$/,
    handler: (ctx) => handleChatCompletion(ctx, gateway),
  });
}
