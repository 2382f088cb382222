import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { boundedJson, isLoopbackHost, recordingUrlProblem, serviceAddressProblem } from './web-address';

describe('web addresses a journalist types', () => {
  it('knows which hosts never leave this machine', () => {
    for (const host of ['localhost', '127.0.0.1', '127.9.8.7', '[::1]', '::1'])
      expect(isLoopbackHost(host)).toBe(true);
    for (const host of ['example.com', '10.0.0.1', '128.0.0.1', 'localhost.example.com'])
      expect(isLoopbackHost(host)).toBe(false);
  });

  it('sends only http(s) recordings for transcription', () => {
    expect(recordingUrlProblem('https://media.example.com/a.mp3')).toBeNull();
    expect(recordingUrlProblem('http://media.example.com/a.mp3')).toBeNull();
    expect(recordingUrlProblem('javascript:alert(1)')).toContain('not javascript:// addresses');
    expect(recordingUrlProblem('file:///etc/passwd')).toContain('Only web addresses');
    expect(recordingUrlProblem('ftp://host/a.mp3')).toContain('Only web addresses');
    expect(recordingUrlProblem('not a link')).toBe('Enter a full web address, such as https://…');
  });

  it('accepts plain http for a service only on this machine, and never a password in the address', () => {
    expect(serviceAddressProblem('')).toBeNull();
    expect(serviceAddressProblem('https://api.example.com')).toBeNull();
    expect(serviceAddressProblem('http://127.0.0.1:8787')).toBeNull();
    expect(serviceAddressProblem('http://localhost:8787')).toBeNull();
    expect(serviceAddressProblem('http://api.example.com')).toContain('Plain http is only for this computer');
    expect(serviceAddressProblem('https://user:secret@api.example.com')).toContain(
      'Leave the user name and password out',
    );
    expect(serviceAddressProblem('ftp://api.example.com')).toBe(
      'Use an address starting with https:// or http://.',
    );
    expect(serviceAddressProblem('ws://127.0.0.1:9', ['https:', 'http:', 'wss:', 'ws:'])).toBeNull();
    expect(serviceAddressProblem('ws://agents.example.com', ['https:', 'http:', 'wss:', 'ws:'])).toContain(
      'Plain http',
    );
  });

  it('refuses JSON options too large or too deep, without overflowing the stack', () => {
    const options = boundedJson(z.record(z.string(), z.unknown()), { maxBytes: 1024, maxDepth: 4 });
    expect(options.safeParse({ speaker_labels: true, a: { b: { c: 1 } } }).success).toBe(true);
    const big = options.safeParse({ text: 'x'.repeat(2000) });
    expect(big.success).toBe(false);
    expect(big.error?.issues[0]?.message).toMatch(/too large \(2 KB; at most 1 KB\)/);
    let deep: Record<string, unknown> = {};
    const top = deep;
    for (let level = 0; level < 100_000; level++) deep = deep.next = {};
    const nested = options.safeParse(top);
    expect(nested.success).toBe(false);
    expect(nested.error?.issues[0]?.message).toBe('Options may nest at most 4 levels deep.');
  });
});
