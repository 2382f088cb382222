import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { VerbatimError } from '../../../shared/errors';
import { parseNewsroomAddress } from './newsroom-address';
import { NewsroomConnection } from './newsroom-connection';
import { useNewsroomServer } from './newsroom-server.test-kit';
import { selfSignedCertificate } from './test-certificates.test-kit';

const certificates = mkdtempSync(join(tmpdir(), 'verbatim-newsroom-tls-'));
afterAll(() => rmSync(certificates, { recursive: true, force: true }));
const server = useNewsroomServer({
  listenAddresses: ['127.0.0.1', '127.0.0.2'],
  tls: selfSignedCertificate(certificates, 'newsroom.test'),
});

describe('TLS to a newsroom that is not this machine', () => {
  it('refuses a server whose certificate is not trusted, before the password is sent, in words', async () => {
    const address = parseNewsroomAddress(server().urlFor('ana', '127.0.0.2'));
    const newsroom = new NewsroomConnection(address, 'pw-Tls-Test-0d4c', {
      connectTimeoutMs: 2000,
      statementTimeoutMs: 1000,
    });
    try {
      const refused = await newsroom.query('SELECT 1').catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(VerbatimError);
      expect(refused).toMatchObject({ code: 'forbidden', details: { code: 'DEPTH_ZERO_SELF_SIGNED_CERT' } });
      expect((refused as VerbatimError).message).toBe(
        `The newsroom at ${server().urlFor('ana', '127.0.0.2')} could not prove it is 127.0.0.2 (its certificate does not match or is not trusted), so nothing was sent: check the address, and tell your newsroom's administrator.`,
      );
    } finally {
      await newsroom.close();
    }
  });
});
