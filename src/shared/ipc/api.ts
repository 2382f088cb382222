import type { Envelope } from './envelope';
import { unwrap } from './envelope';
import type { EventName, EventPayload, MethodInput, MethodName, MethodOutput } from './contract';
import { methodNames } from './contract';
import type { TextChoice } from '../redaction';

type ArgsOf<M extends MethodName> =
  undefined extends MethodInput<M> ? [input?: MethodInput<M>] : [input: MethodInput<M>];

type Namespace = MethodName extends `${infer N}.${string}` ? N : never;

type NamespaceMethods<N extends Namespace, R> = {
  [M in MethodName as M extends `${N}.${infer Short}` ? Short : never]: (
    ...args: ArgsOf<M>
  ) => Promise<R extends 'envelope' ? Envelope<MethodOutput<M>> : MethodOutput<M>>;
};

type Subscribe = <E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void) => () => void;

/**
 * What only the transport can do, because it concerns the page's own objects: the path of a
 * file the user dropped or picked (Electron knows it; the web host receives the file's
 * bytes and answers with where it stored them), and the address the page can play a
 * transcript's recording from.
 */
export interface LocalCapabilities {
  pathForFile(file: Blob): Promise<string>;
  /**
   * Where the page plays a transcript's recording: redacted where its words are (the
   * default), or the original, which only the reader's "Show unredacted text" asks for.
   */
  mediaUrl(transcriptId: string, audio?: TextChoice): string;
}

/** What a transport exposes as `window.api`: methods answer with envelopes. */
export type BridgeApi = { [N in Namespace]: NamespaceMethods<N, 'envelope'> } & {
  on: Subscribe;
  local: LocalCapabilities;
};

/** What renderer code uses: methods answer with values and throw VerbatimError. */
export type Api = { [N in Namespace]: NamespaceMethods<N, 'value'> } & {
  on: Subscribe;
  local: LocalCapabilities;
};

export interface Transport {
  invoke(method: MethodName, input: unknown): Promise<Envelope<unknown>>;
  subscribe(event: EventName, listener: (payload: unknown) => void): () => void;
}

function buildNested<T>(call: (method: MethodName, input: unknown) => Promise<unknown>): T {
  const api: Record<string, Record<string, (input?: unknown) => Promise<unknown>>> = {};
  for (const method of methodNames) {
    const [namespace, name] = method.split('.') as [string, string];
    api[namespace] ??= {};
    api[namespace][name] = (input?: unknown) => call(method, input);
  }
  return api as T;
}

/** Builds `window.api` from the contract's method list over any transport. */
export function createBridgeApi(transport: Transport, local: LocalCapabilities): BridgeApi {
  const api = buildNested<Omit<BridgeApi, 'on' | 'local'>>((method, input) =>
    transport.invoke(method, input),
  );
  const on: Subscribe = (event, listener) =>
    transport.subscribe(event, (payload) => listener(payload as EventPayload<typeof event>));
  return Object.assign(api, { on, local });
}

/** Wraps a bridge so callers get values or typed errors instead of envelopes. */
export function createApi(bridge: BridgeApi): Api {
  const api = buildNested<Omit<Api, 'on' | 'local'>>(async (method, input) => {
    const [namespace, name] = method.split('.') as [string, string];
    const group = (bridge as unknown as Record<string, Record<string, (i: unknown) => unknown>>)[namespace];
    const fn = group?.[name];
    if (!fn) throw new Error(`The bridge has no method ${method}`);
    return unwrap((await fn(input)) as Envelope<unknown>);
  });
  return Object.assign(api, { on: bridge.on, local: bridge.local });
}
