import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
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

describe('the newsroom password in the secret store', () => {
  const passwords = fc.string({ minLength: 1, maxLength: 40, unit: 'binary' });

  it('keeps any password byte for byte through a restart, spaces around it included', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'verbatim-secrets-')), 'secrets.json');
    await fc.assert(
      fc.asyncProperty(passwords, async (password) => {
        const store = new SecretStore(nodeFileSystem, path, cipher);
        await store.set('newsroomPassword', password);
        expect(store.peek('newsroomPassword')).toBe(password);
        const reopened = new SecretStore(nodeFileSystem, path, cipher);
        await reopened.load();
        expect(reopened.peek('newsroomPassword')).toBe(password);
        const memory = new MemorySecrets();
        await memory.set('newsroomPassword', password);
        expect(memory.peek('newsroomPassword')).toBe(password);
      }),
      { numRuns: 60 },
    );
  });

  it('calls a password a password when it refuses one', async () => {
    await expect(new MemorySecrets().set('newsroomPassword', '')).rejects.toThrow(
      'The password is empty: enter it.',
    );
    const path = join(mkdtempSync(join(tmpdir(), 'verbatim-secrets-')), 'secrets.json');
    const store = new SecretStore(nodeFileSystem, path, { ...cipher, available: () => false });
    await expect(store.set('newsroomPassword', ' pw ')).rejects.toThrow(
      'This computer offers no secure storage for passwords (no keychain is running). Verbatim will not store the password in clear.',
    );
  });
});
