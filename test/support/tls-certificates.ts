// Certificates for https servers in tests, made with openssl in a temporary folder
// once per process: a CA, and leaves it signed — for IP 127.0.0.1 and DNS localhost,
// an expired one, one for another name — plus a self-signed leaf no CA vouches for.

import { execFile } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface TestCertificates {
  /** The folder the files are in. */
  readonly dir: string;
  readonly caPem: string;
  /** The CA as a PEM file (for `NODE_EXTRA_CA_CERTS` or `--ca-file`). */
  readonly caFile: string;
  /** A leaf for IP 127.0.0.1 and DNS localhost, signed by the CA. */
  readonly leafKey: string;
  readonly leafCert: string;
  /** As the leaf, but its validity ended. */
  readonly expiredKey: string;
  readonly expiredCert: string;
  /** For 127.0.0.1 and localhost, signed by itself. */
  readonly selfSignedKey: string;
  readonly selfSignedCert: string;
  /** Signed by the CA, for another name only (`wrong.example`). */
  readonly wrongNameKey: string;
  readonly wrongNameCert: string;
}

let made: Promise<TestCertificates> | undefined;

/** The certificates, made on the first call (openssl must be installed). */
export function makeTestCertificates(): Promise<TestCertificates> {
  made ??= make();
  return made;
}

async function openssl(dir: string, args: readonly string[]): Promise<void> {
  await run('openssl', args, { cwd: dir });
}

async function make(): Promise<TestCertificates> {
  const dir = await mkdtemp(join(tmpdir(), 'linkladder-tls-'));
  await openssl(dir, [
    'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '3650',
    '-subj', '/CN=linkladder test CA', '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign',
  ]);
  const leaf = async (name: string, altNames: string, days: string, signer: 'ca' | 'self'): Promise<void> => {
    await writeFile(join(dir, `${name}.ext`), `basicConstraints=CA:FALSE\nsubjectAltName=${altNames}\nextendedKeyUsage=serverAuth\n`);
    if (signer === 'self') {
      await openssl(dir, [
        'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', `${name}.key`, '-out', `${name}.pem`, '-days', days,
        '-subj', `/CN=${name}`, '-addext', `subjectAltName=${altNames}`,
      ]);
      return;
    }
    await openssl(dir, ['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', `/CN=${name}`]);
    if (days === 'expired') {
      // `openssl x509` sets no start date before OpenSSL 3.4; `openssl ca` does, given a minimal CA folder.
      await writeFile(join(dir, 'index.txt'), '');
      await writeFile(join(dir, 'serial'), '1000\n');
      await writeFile(
        join(dir, 'ca.cnf'),
        '[ca]\ndefault_ca = test\n[test]\ndir = .\ndatabase = index.txt\nnew_certs_dir = .\nserial = serial\ndefault_md = sha256\npolicy = any\n[any]\ncommonName = supplied\n',
      );
      await openssl(dir, [
        'ca', '-batch', '-notext', '-config', 'ca.cnf', '-cert', 'ca.pem', '-keyfile', 'ca.key', '-in', `${name}.csr`, '-out', `${name}.pem`,
        '-startdate', '20200101000000Z', '-enddate', '20200102000000Z', '-extfile', `${name}.ext`,
      ]);
      return;
    }
    await openssl(dir, [
      'x509', '-req', '-in', `${name}.csr`, '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', `${name}.pem`,
      '-days', days, '-extfile', `${name}.ext`,
    ]);
  };
  const local = 'IP:127.0.0.1,DNS:localhost';
  await leaf('leaf', local, '825', 'ca');
  await leaf('expired', local, 'expired', 'ca');
  await leaf('self-signed', local, '825', 'self');
  await leaf('wrong-name', 'DNS:wrong.example', '825', 'ca');
  const text = (file: string): Promise<string> => readFile(join(dir, file), 'utf8');
  return Object.freeze({
    dir,
    caPem: await text('ca.pem'),
    caFile: join(dir, 'ca.pem'),
    leafKey: await text('leaf.key'),
    leafCert: await text('leaf.pem'),
    expiredKey: await text('expired.key'),
    expiredCert: await text('expired.pem'),
    selfSignedKey: await text('self-signed.key'),
    selfSignedCert: await text('self-signed.pem'),
    wrongNameKey: await text('wrong-name.key'),
    wrongNameCert: await text('wrong-name.pem'),
  });
}
