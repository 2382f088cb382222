import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { useNewsroomServer } from '../../core/newsroom/newsroom-server.test-kit';
import { authoritySignedCertificate } from '../../core/newsroom/test-certificates.test-kit';
import { runCliProcess } from '../cli-process.test-kit';

/**
 * TLS `verify-full` to a newsroom that is not this machine (issue #35, points 1 and 9), the case
 * a self-signed certificate cannot show: a certificate from an authority the computer trusts,
 * but made out to another name. The CLI runs as a real child process that trusts a test
 * authority through NODE_EXTRA_CA_CERTS, as a newsroom's own authority is added to a computer.
 */
const folder = mkdtempSync(join(tmpdir(), 'verbatim-newsroom-ca-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const { authority, ...tls } = authoritySignedCertificate(folder, 'IP:127.0.0.3');
const server = useNewsroomServer({ listenAddresses: ['127.0.0.1', '127.0.0.2', '127.0.0.3'], tls });

function migrateAt(host: string, trusting: string | undefined) {
  return runCliProcess(['newsroom', 'migrate'], {
    VERBATIM_NEWSROOM_URL: server().urlFor('postgres', host),
    VERBATIM_NEWSROOM_PASSWORD: server().adminPassword,
    NODE_EXTRA_CA_CERTS: trusting,
  });
}

describe('TLS verify-full against a certificate from a trusted authority', () => {
  it('connects where the certificate names the address, refuses where it names another, and refuses an authority not trusted', async () => {
    const named = await migrateAt('127.0.0.3', authority);
    expect(named).toMatchObject({ code: 0, stderr: '' });
    expect(named.stdout).toMatch(
      /^Migrated the newsroom at postgres:\/\/postgres@127\.0\.0\.3:\d+\/verbatim to schema version \d+/,
    );

    const otherName = await migrateAt('127.0.0.2', authority);
    expect(otherName).toMatchObject({ code: 1, stdout: '' });
    expect(otherName.stderr).toBe(
      `verbatim: The newsroom at ${server().urlFor('postgres', '127.0.0.2')} could not prove it is 127.0.0.2 (its certificate does not match or is not trusted), so nothing was sent: check the address, and tell your newsroom's administrator.\n`,
    );

    const untrusted = await migrateAt('127.0.0.3', undefined);
    expect(untrusted.code).toBe(1);
    expect(untrusted.stderr).toContain('could not prove it is 127.0.0.3');
    for (const run of [named, otherName, untrusted])
      expect(run.stdout + run.stderr).not.toContain(server().adminPassword);
  });
});
