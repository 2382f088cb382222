import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import WebSocket from 'ws';
import { rawDataToText, socketPath } from '../../src/web-host/web-host';

/** A client of the web host's socket, as the page's bridge is: calls and events. */
export class DemoClient {
  private nextId = 1;
  private constructor(private readonly ws: WebSocket) {}

  static connect(openUrl: string): Promise<DemoClient> {
    const { origin, searchParams } = new URL(openUrl);
    const ws = new WebSocket(
      `${origin.replace('http', 'ws')}${socketPath}?token=${searchParams.get('token')}`,
    );
    return new Promise((resolveOpen, reject) => {
      ws.once('open', () => resolveOpen(new DemoClient(ws)));
      ws.once('error', reject);
    });
  }

  call(method: string, input?: unknown): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolveCall) => {
      const onMessage = (data: WebSocket.RawData): void => {
        const message = JSON.parse(rawDataToText(data)) as { id?: number; result?: unknown };
        if (message.id !== id) return;
        this.ws.off('message', onMessage);
        resolveCall(message.result);
      };
      this.ws.on('message', onMessage);
      this.ws.send(JSON.stringify({ id, method, input }));
    });
  }

  waitForEvent(event: string, matches: (payload: unknown) => boolean): Promise<unknown> {
    return new Promise((resolveEvent) => {
      const onMessage = (data: WebSocket.RawData): void => {
        const message = JSON.parse(rawDataToText(data)) as { event?: string; payload?: unknown };
        if (message.event !== event || !matches(message.payload)) return;
        this.ws.off('message', onMessage);
        resolveEvent(message.payload);
      };
      this.ws.on('message', onMessage);
    });
  }

  /**
   * One turn of the assistant from now on: what it heard, the results of the tools it called
   * (as sent back to the agent) and the reply that followed them. Fails after `deadlineMs`
   * saying what the agent said instead, so an agent that never calls a tool is told, not hung on.
   */
  waitForAssistantAnswer(deadlineMs = 30_000): Promise<AssistantTurn> {
    let heard: string | undefined;
    const said: string[] = [];
    const calls = new Map<string, string | undefined>();
    return new Promise((resolveTurn, reject) => {
      const finish = (): void => {
        clearTimeout(deadline);
        this.ws.off('message', onMessage);
      };
      const deadline = setTimeout(() => {
        finish();
        reject(
          new Error(`No answer after a tool call. Heard: ${heard}; the agent said: ${said.join(' | ')}`),
        );
      }, deadlineMs);
      const onMessage = (data: WebSocket.RawData): void => {
        const message = JSON.parse(rawDataToText(data)) as { event?: string; payload?: unknown };
        if (message.event === 'voice.toolCall') {
          const call = message.payload as { callId: string; status: string; result?: string };
          calls.set(call.callId, call.status === 'running' ? undefined : (call.result ?? ''));
          return;
        }
        if (message.event !== 'voice.transcript') return;
        const line = message.payload as { role: string; text: string; final: boolean; interrupted: boolean };
        if (!line.final || line.interrupted) return;
        if (line.role === 'user') heard = line.text;
        if (line.role !== 'agent' || heard === undefined) return;
        said.push(line.text);
        const results = [...calls.values()];
        if (results.length === 0 || results.some((result) => result === undefined)) return;
        finish();
        resolveTurn({ heard, toolResults: results as string[], answer: line.text });
      };
      this.ws.on('message', onMessage);
    });
  }

  close(): void {
    this.ws.close();
  }
}

/** What the assistant heard, what its tools sent back to the agent, and what the agent then said. */
export interface AssistantTurn {
  heard: string;
  toolResults: string[];
  answer: string;
}

/** `npm run demo:web` running as a child process: what it printed and the address it opened. */
export interface RunningDemo {
  child: ChildProcessByStdio<null, Readable, null>;
  url: string;
  output(): string;
  /** Stops the demo as Ctrl+C would; resolves with its exit code. */
  stop(): Promise<number | null>;
}

/** The file `npm run demo:web` runs after building. */
export const demoEntry = resolve(import.meta.dirname, 'demo.ts');

/** Starts `npm run demo:web -- <args>` (after its build) on an empty data folder. */
export async function startWebDemo(args: string[] = []): Promise<RunningDemo> {
  const child = spawn(process.execPath, ['--import', 'tsx', demoEntry, ...args], {
    env: { ...process.env, VERBATIM_DATA_DIR: mkdtempSync(join(tmpdir(), 'verbatim-demo-web-')) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<number | null>((resolveExit) => child.on('exit', (code) => resolveExit(code)));
  let output = '';
  const url = await new Promise<string>((resolveUrl, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /demo is running at (http:\/\/127\.0\.0\.1:\d+\/\?token=\w+)/.exec(output);
      if (match?.[1]) resolveUrl(match[1]);
    });
    void exited.then((code) => reject(new Error(`The demo ended before it was ready (exit ${code}).`)));
  });
  return {
    child,
    url,
    output: () => output,
    stop: () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
}
