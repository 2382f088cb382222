import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { contract, events, eventNames, methodNames, type Handlers, type MethodName } from './contract';
import { createApi, createBridgeApi, type Api, type BridgeApi, type Transport } from './api';
import { success } from './envelope';

/** Every "namespace.method" path the bridge type exposes. */
type BridgePaths<T> = {
  [N in keyof T & string]: T[N] extends Record<string, unknown> ? `${N}.${keyof T[N] & string}` : never;
}[keyof T & string];

const noLocal = {
  pathForFile: () => Promise.resolve('/x'),
  mediaUrl: (id: string) => `media:${id}`,
};

describe('the IPC contract', () => {
  it('lists every method at runtime, and the type of the list is exactly the contract', () => {
    expect([...methodNames].sort()).toEqual(Object.keys(contract).sort());
    expectTypeOf<(typeof methodNames)[number]>().toEqualTypeOf<MethodName>();
    expect([...eventNames].sort()).toEqual(Object.keys(events).sort());
  });

  it('gives the bridge and the renderer api a function for every method and nothing else', () => {
    expectTypeOf<BridgePaths<Omit<BridgeApi, 'on' | 'local'>>>().toEqualTypeOf<MethodName>();
    expectTypeOf<BridgePaths<Omit<Api, 'on' | 'local'>>>().toEqualTypeOf<MethodName>();
  });

  it('refuses a handler object with a method missing (compile-time)', () => {
    const incomplete = {
      'app.info': () => Promise.resolve({ name: 'Verbatim', version: '1', platform: 'linux', dataDir: '/d' }),
    };
    // @ts-expect-error every contract method needs a handler
    const handlers: Handlers = incomplete;
    expect(Object.keys(handlers)).not.toEqual(methodNames);
  });

  it('declares every method name as namespace.method with schemas on both sides', () => {
    for (const method of methodNames) {
      expect(method).toMatch(/^[a-z]+\.[a-zA-Z]+$/);
      expect(contract[method].input).toBeInstanceOf(z.ZodType);
      expect(contract[method].output).toBeInstanceOf(z.ZodType);
    }
  });

  it('builds window.api from the method list: every method reaches the transport', async () => {
    const calls: [string, unknown][] = [];
    const transport: Transport = {
      invoke: (method, input) => {
        calls.push([method, input]);
        return Promise.resolve(success(null));
      },
      subscribe: () => () => undefined,
    };
    const bridge = createBridgeApi(transport, noLocal) as unknown as Record<
      string,
      Record<string, (input?: unknown) => Promise<unknown>>
    >;
    for (const method of methodNames) {
      const [namespace, name] = method.split('.') as [string, string];
      await bridge[namespace]![name]!({ probe: method });
    }
    expect(calls).toEqual(methodNames.map((method) => [method, { probe: method }]));
  });

  it('delivers events to subscribers until they unsubscribe', () => {
    const listeners = new Set<(payload: unknown) => void>();
    const transport: Transport = {
      invoke: () => Promise.resolve(success(null)),
      subscribe: (_event, listener) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    };
    const api = createApi(createBridgeApi(transport, noLocal));
    const seen: unknown[] = [];
    const stop = api.on('settings.changed', (settings) => seen.push(settings.theme));
    for (const listener of listeners) listener({ theme: 'dark', reduceMotion: false });
    stop();
    for (const listener of listeners) listener({ theme: 'light', reduceMotion: false });
    expect(seen).toEqual(['dark']);
  });
});
