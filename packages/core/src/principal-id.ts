/**
 * Principal ids, namespaced by the scheme that proved them (and by the authority that vouches
 * for the name), so a name is only ever equal to the same name from the same source. Task
 * ownership compares these ids: without the namespace, a JWT with `sub: alice`, the API-key
 * principal `alice` and a certificate with CN `alice` would all own the same tasks, and anyone
 * who can get one of them issued could read the others' tasks. Different schemes meet only
 * through an explicit map (`withPrincipalAliases`).
 *
 * - `jwt:<iss>#<sub>`: a bearer JWT (the issuer that signed it, then the subject it names);
 * - `key:<name>`: a static API key (the name the configuration gives the key);
 * - `cert:<issuer DN>#<subject DN>`: a verified client certificate (the CA's name, then the
 *   whole subject, see {@link distinguishedName}).
 *
 * The first `#` separates the authority from the name: `%` and `#` in the authority are
 * percent-escaped, so no issuer can end where another's subject begins.
 */
export const principalId = {
  jwt: (issuer: string, subject: string): string => `jwt:${escapeAuthority(issuer)}#${subject}`,
  apiKey: (name: string): string => `key:${name}`,
  certificate: (issuerDn: string, subjectDn: string): string => `cert:${escapeAuthority(issuerDn)}#${subjectDn}`,
};

function escapeAuthority(authority: string): string {
  return authority.replace(/[%#]/g, (c) => (c === '%' ? '%25' : '%23'));
}
