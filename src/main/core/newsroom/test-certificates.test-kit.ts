import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Certificates for the TLS tests, made by openssl in `folder`: each file's path. */

function openssl(...args: string[]): void {
  execFileSync('openssl', args, { stdio: 'ignore' });
}

/** A key and a certificate request or self-signed certificate, valid for one day. */
function newKey(folder: string, name: string, subject: string, selfSigned: boolean): void {
  openssl(
    'req',
    ...(selfSigned ? ['-x509', '-days', '1'] : ['-new']),
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-subj',
    subject,
    ...(selfSigned && name === 'authority'
      ? ['-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign']
      : []),
    '-keyout',
    join(folder, `${name}.key`),
    '-out',
    join(folder, selfSigned ? `${name}.crt` : `${name}.csr`),
  );
}

/** A self-signed certificate for `commonName`: one no system trusts, as a forged server's would be. */
export function selfSignedCertificate(
  folder: string,
  commonName: string,
): { certFile: string; keyFile: string } {
  newKey(folder, 'self-signed', `/CN=${commonName}`, true);
  return { certFile: join(folder, 'self-signed.crt'), keyFile: join(folder, 'self-signed.key') };
}

/**
 * A certificate authority (to be trusted as a newsroom's own is) and a server certificate it
 * signed for `subjectAltName` only (for example `IP:127.0.0.3`).
 */
export function authoritySignedCertificate(
  folder: string,
  subjectAltName: string,
): { authority: string; certFile: string; keyFile: string } {
  newKey(folder, 'authority', '/CN=Verbatim test newsroom authority', true);
  newKey(folder, 'server', '/CN=newsroom.test', false);
  const extensions = join(folder, 'server.ext');
  writeFileSync(
    extensions,
    `subjectAltName=${subjectAltName}\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n`,
  );
  openssl(
    'x509',
    '-req',
    '-in',
    join(folder, 'server.csr'),
    '-CA',
    join(folder, 'authority.crt'),
    '-CAkey',
    join(folder, 'authority.key'),
    '-CAcreateserial',
    '-days',
    '1',
    '-extfile',
    extensions,
    '-out',
    join(folder, 'server.crt'),
  );
  return {
    authority: join(folder, 'authority.crt'),
    certFile: join(folder, 'server.crt'),
    keyFile: join(folder, 'server.key'),
  };
}
