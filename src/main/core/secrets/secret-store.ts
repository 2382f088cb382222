import { VerbatimError } from '../../../shared/errors';
import type { FileSystem } from '../../base/fs';

/** Encrypts secrets at rest: Electron's safeStorage in the app (OS keychain / DPAPI / libsecret). */
export interface Cipher {
  available(): boolean;
  encrypt(text: string): Buffer;
  decrypt(data: Buffer): string;
}

/**
 * The catalog has two keys: an ordinary one, and an optional management key for the operations
 * that need it. The newsroom's password is the reporter's own PostgreSQL login (issue #35).
 */
export const secretNames = ['transcriptionKey', 'catalogKey', 'managementKey', 'newsroomPassword'] as const;
export type SecretName = (typeof secretNames)[number];

/**
 * The value as it is kept. An API key is pasted, so the spaces around it are the clipboard's and
 * are trimmed; a password is kept byte for byte, as one may begin or end with a space.
 */
function storedValue(name: SecretName, value: string): string {
  const password = name === 'newsroomPassword';
  const stored = password ? value : value.trim();
  if (!stored)
    throw new VerbatimError(
      'invalid_input',
      password ? 'The password is empty: enter it.' : 'The key is empty.',
    );
  return stored;
}

function secretKind(name: SecretName): string {
  return name === 'newsroomPassword' ? 'password' : 'key';
}

export interface Secrets {
  /** Synchronous read of a loaded secret, for per-request auth headers. */
  peek(name: SecretName): string | undefined;
  load(): Promise<void>;
  set(name: SecretName, value: string): Promise<void>;
  delete(name: SecretName): Promise<void>;
}

/**
 * API keys encrypted with the platform's cipher in a small file in the data folder. Keys are
 * never written in clear, never logged, and never sent to the renderer: it only learns
 * whether one is set.
 */
export class SecretStore implements Secrets {
  private values = new Map<SecretName, string>();

  constructor(
    private readonly fs: FileSystem,
    private readonly path: string,
    private readonly cipher: Cipher,
  ) {}

  peek(name: SecretName): string | undefined {
    return this.values.get(name);
  }

  async load(): Promise<void> {
    let text: string;
    try {
      text = await this.fs.readFile(this.path);
    } catch {
      return;
    }
    if (!this.cipher.available()) return;
    try {
      const stored = JSON.parse(text) as Record<string, string>;
      for (const [name, value] of Object.entries(stored)) {
        this.values.set(name as SecretName, this.cipher.decrypt(Buffer.from(value, 'base64')));
      }
    } catch {
      // Encrypted by another user or machine: unreadable here, so the key must be entered again.
      this.values.clear();
    }
  }

  async set(name: SecretName, value: string): Promise<void> {
    const stored = storedValue(name, value);
    if (!this.cipher.available()) {
      const kind = secretKind(name);
      throw new VerbatimError(
        'storage',
        `This computer offers no secure storage for ${kind}s (no keychain is running). Verbatim will not store the ${kind} in clear.`,
      );
    }
    this.values.set(name, stored);
    await this.save();
  }

  async delete(name: SecretName): Promise<void> {
    this.values.delete(name);
    await this.save();
  }

  private async save(): Promise<void> {
    const stored: Record<string, string> = {};
    for (const [name, value] of this.values) stored[name] = this.cipher.encrypt(value).toString('base64');
    await this.fs.writeFileAtomic(this.path, JSON.stringify(stored));
  }
}

/** The web host and tests keep keys in memory only, seeded from the environment. */
export class MemorySecrets implements Secrets {
  private readonly values = new Map<SecretName, string>();

  constructor(initial: Partial<Record<SecretName, string | undefined>> = {}) {
    for (const [name, value] of Object.entries(initial))
      if (value) this.values.set(name as SecretName, value);
  }

  peek(name: SecretName): string | undefined {
    return this.values.get(name);
  }

  load(): Promise<void> {
    return Promise.resolve();
  }

  set(name: SecretName, value: string): Promise<void> {
    let stored: string;
    try {
      stored = storedValue(name, value);
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    this.values.set(name, stored);
    return Promise.resolve();
  }

  delete(name: SecretName): Promise<void> {
    this.values.delete(name);
    return Promise.resolve();
  }
}
