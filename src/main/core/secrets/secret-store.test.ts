import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemorySecrets, SecretStore, type Cipher } from './secret-store';
import { nodeFileSystem } from '../../base/fs';

/** A stand-in for safeStorage: reversible, and visibly not the clear text. */
const cipher: Cipher = {
  available: () => true,
  encrypt: (text) => Buffer.from([...Buffer.from(text)].map((b) => b ^ 0x5a)),
  decrypt: (data) => Buffer.from([...data].map((b) => b ^ 0x5a)).toString(),
};

describe('the secret store', () => {
  it('keeps a key encrypted on disk and reads it back after a restart', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'verbatim-secrets-')), 'secrets.json');
    const store = new SecretStore(nodeFileSystem, path, cipher);
    await store.set('transcriptionKey', '  sk-live-123  ');
    expect(store.peek('transcriptionKey')).toBe('sk-live-123');
    expect(readFileSync(path, 'utf8')).not.toContain('sk-live-123');
    const reopened = new SecretStore(nodeFileSystem, path, cipher);
    await reopened.load();
    expect(reopened.peek('transcriptionKey')).toBe('sk-live-123');
    await reopened.delete('transcriptionKey');
    const again = new SecretStore(nodeFileSystem, path, cipher);
    await again.load();
    expect(again.peek('transcriptionKey')).toBeUndefined();
  });

  it('refuses to store a key in clear when no secure storage exists', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'verbatim-secrets-')), 'secrets.json');
    const store = new SecretStore(nodeFileSystem, path, { ...cipher, available: () => false });
    await expect(store.set('transcriptionKey', 'k')).rejects.toThrow('secure storage');
  });

  it('refuses an empty key', async () => {
    await expect(new MemorySecrets().set('transcriptionKey', '   ')).rejects.toThrow('empty');
  });

  it('seeds the in-memory store from the environment', () => {
    expect(new MemorySecrets({ transcriptionKey: 'env-key' }).peek('transcriptionKey')).toBe('env-key');
    expect(new MemorySecrets({ transcriptionKey: undefined }).peek('transcriptionKey')).toBeUndefined();
  });
});
