/**
 * Principal ids are namespaced by scheme: the API-key principal `alice` and a certificate with
 * CN `alice` are different callers, a certificate is its whole subject under its issuer (so a
 * certificate without CN, or with two, passes for no other), and only an explicit alias map
 * makes two of them one identity.
 */
import { ApiKeyAuthenticator, callContext, ClientCertificateAuthenticator, clientCertificateOf, principalId, withPrincipalAliases } from '../src/index.js';
import { distinguishedName } from '../src/distinguished-name.js';

const CA = { CN: 'Example CA', O: 'Example' };

/** The id a verified certificate with `subject` (Node's `PeerCertificate.subject` shape), signed by `issuer`, authenticates as. */
async function certId(subject: Record<string, string | string[]>, issuer: Record<string, string> = CA): Promise<string> {
  const clientCertificate = clientCertificateOf({ subject, issuer });
  return (await new ClientCertificateAuthenticator().authenticate({ ...callContext('GRPC', {}), clientCertificate })).id;
}

describe('principal ids', () => {
  it('an API key authenticates as key:<name>', async () => {
    const keys = new ApiKeyAuthenticator({ keys: { s3cret: 'alice' } });
    await expect(keys.authenticate(callContext('JSONRPC', { 'x-api-key': 's3cret' }))).resolves.toEqual({ id: 'key:alice' });
  });

  it('a certificate authenticates as cert:<issuer DN>#<subject DN>, never as its bare CN', async () => {
    expect(await certId({ C: 'US', O: 'Example', CN: 'alice' })).toBe('cert:CN=Example CA,O=Example#C=US,O=Example,CN=alice');
    expect(await certId({ CN: 'alice' })).not.toBe('key:alice');
    expect(await certId({ CN: 'alice' })).not.toBe('alice');
  });

  it('keeps apart a certificate without CN and one whose CN reads like its subject', async () => {
    const noCn = await certId({ O: 'x' });
    const cnLooksLikeSubject = await certId({ CN: 'O=x' });
    expect(noCn).toBe('cert:CN=Example CA,O=Example#O=x');
    expect(cnLooksLikeSubject).toBe('cert:CN=Example CA,O=Example#CN=O\\=x');
    expect(await certId({ CN: 'a,O=x' })).not.toBe(await certId({ CN: 'a', O: 'x' }));
  });

  it('keeps apart a certificate with two CNs and one with the first of them', async () => {
    const two = await certId({ CN: ['alice', 'mallory'] });
    expect(two).toBe('cert:CN=Example CA,O=Example#CN=alice,CN=mallory');
    expect(two).not.toBe(await certId({ CN: 'alice' }));
  });

  it('keeps apart the same subject under two CAs', async () => {
    expect(await certId({ CN: 'svc' }, { CN: 'CA one' })).not.toBe(await certId({ CN: 'svc' }, { CN: 'CA two' }));
  });

  it('escapes DN values as RFC 4514 says, and # in the authority part of an id', () => {
    expect(distinguishedName({ CN: ' #lead, "q" + <a>;b\\ ', O: '#x' })).toBe('CN=\\ #lead\\, \\"q\\" \\+ \\<a\\>\\;b\\\\\\ ,O=\\#x');
    expect(principalId.jwt('https://idp#x', 'alice')).toBe('jwt:https://idp%23x#alice');
    expect(principalId.jwt('https://idp', 'x#alice')).toBe('jwt:https://idp#x#alice');
    expect(principalId.certificate('CN=100%', 'CN=a')).toBe('cert:CN=100%25#CN=a');
  });

  it('maps principals to a shared identity only by an explicit alias', async () => {
    const keys = new ApiKeyAuthenticator({ keys: { ka: 'alice', kb: 'bob' } });
    const aliased = withPrincipalAliases(keys, { 'key:alice': 'user:alice' });
    await expect(aliased.authenticate(callContext('JSONRPC', { 'x-api-key': 'ka' }))).resolves.toEqual({
      id: 'user:alice',
      attributes: { authenticatedAs: 'key:alice' },
    });
    await expect(aliased.authenticate(callContext('JSONRPC', { 'x-api-key': 'kb' }))).resolves.toEqual({ id: 'key:bob' });
    expect(withPrincipalAliases(keys, {})).toBe(keys);
  });
});
