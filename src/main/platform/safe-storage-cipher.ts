import { safeStorage } from 'electron';
import type { Cipher } from '../core/secrets/secret-store';

/** Keys encrypted by the OS: Keychain on macOS, DPAPI on Windows, libsecret/kwallet on Linux. */
export const safeStorageCipher: Cipher = {
  available: () => safeStorage.isEncryptionAvailable(),
  encrypt: (text) => safeStorage.encryptString(text),
  decrypt: (data) => safeStorage.decryptString(data),
};
