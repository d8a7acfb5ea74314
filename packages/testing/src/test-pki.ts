import { generateKeyPairSync } from 'node:crypto';
import forge from 'node-forge';

/** A certificate and its private key, PEM-encoded. */
export interface TestKeyPair {
  readonly cert: string;
  readonly key: string;
}

/** One attribute of a certificate subject: `{ shortName: 'CN', value: 'svc-a' }`; repeat a shortName for a repeated attribute. */
export interface TestSubjectAttribute {
  readonly shortName: string;
  readonly value: string;
}

/** A throwaway PKI for TLS tests: a CA, a server certificate it signed, and client certificates. */
export interface TestPki {
  readonly ca: TestKeyPair;
  /** For `localhost`, `127.0.0.1` and `::1`. */
  readonly server: TestKeyPair;
  /** A client certificate with CN `client` (use {@link TestPki.issueClient} for others). */
  readonly client: TestKeyPair;
  /** Issues a client certificate signed by the CA, for common name `subject`, or with exactly the attributes of `subject` (no CN, two CNs…). */
  issueClient(subject: string | readonly TestSubjectAttribute[]): TestKeyPair;
}

/**
 * Makes a CA and certificates at test time (node-forge), so no key material is committed and
 * nothing expires in the repository. Keys come from node:crypto (node-forge's pure-JS RSA
 * takes seconds per key); node-forge builds and signs the certificates.
 * `options.caName` names the CA: a second PKI is an unrelated CA (a peer the other side must refuse).
 */
export function makeTestPki(options: { readonly caName?: string } = {}): TestPki {
  const caKeys = rsaKeyPair();
  const caName = [{ name: 'commonName', value: options.caName ?? 'a2a-polyglot test CA' }];
  const caCert = certificate(caKeys.publicKey, caName, caName, [
    { name: 'basicConstraints', cA: true, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
  ]);
  caCert.sign(caKeys.privateKey, forge.md.sha256.create());

  const issue = (subject: string | readonly TestSubjectAttribute[], extensions: object[]): TestKeyPair => {
    const keys = rsaKeyPair();
    const fields = typeof subject === 'string' ? [{ name: 'commonName', value: subject }] : subject.map((a) => ({ ...a }));
    const cert = certificate(keys.publicKey, fields, caName, [{ name: 'basicConstraints', cA: false }, ...extensions]);
    cert.sign(caKeys.privateKey, forge.md.sha256.create());
    return { cert: forge.pki.certificateToPem(cert), key: forge.pki.privateKeyToPem(keys.privateKey) };
  };
  const issueClient = (subject: string | readonly TestSubjectAttribute[]) =>
    issue(subject, [
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', clientAuth: true },
    ]);
  // Issued on first use: each key costs about a second on a busy machine.
  let server: TestKeyPair | undefined;
  let client: TestKeyPair | undefined;
  return {
    ca: { cert: forge.pki.certificateToPem(caCert), key: forge.pki.privateKeyToPem(caKeys.privateKey) },
    get server() {
      server ??= issue('localhost', [
        { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
        { name: 'extKeyUsage', serverAuth: true },
        {
          name: 'subjectAltName',
          altNames: [
            { type: 2, value: 'localhost' },
            { type: 7, ip: '127.0.0.1' },
            { type: 7, ip: '::1' },
          ],
        },
      ]);
      return server;
    },
    get client() {
      client ??= issueClient('client');
      return client;
    },
    issueClient,
  };
}

let serial = 1;

/** An RSA 2048 key pair generated natively, as node-forge keys. */
function rsaKeyPair(): { publicKey: forge.pki.rsa.PublicKey; privateKey: forge.pki.rsa.PrivateKey } {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  return {
    publicKey: forge.pki.publicKeyFromPem(publicKey) as forge.pki.rsa.PublicKey,
    privateKey: forge.pki.privateKeyFromPem(privateKey) as forge.pki.rsa.PrivateKey,
  };
}

function certificate(
  publicKey: forge.pki.PublicKey,
  subject: forge.pki.CertificateField[],
  issuer: forge.pki.CertificateField[],
  extensions: object[],
): forge.pki.Certificate {
  const cert = forge.pki.createCertificate();
  cert.publicKey = publicKey;
  cert.serialNumber = (Date.now() * 1000 + serial++).toString(16);
  cert.validity.notBefore = new Date(Date.now() - 60_000);
  cert.validity.notAfter = new Date(Date.now() + 24 * 60 * 60 * 1000);
  cert.setSubject(subject);
  cert.setIssuer(issuer);
  cert.setExtensions(extensions);
  return cert;
}
