/**
 * A distinguished name as one unambiguous string, from the attribute map Node's
 * `tls.PeerCertificate` gives (`{ C: 'US', O: 'Example', CN: 'svc-a' }`; a repeated attribute
 * is an array): `C=US,O=Example,CN=svc-a`, attributes in the certificate's order, a repeated
 * one once per value, and values escaped as RFC 4514 says (`\,`, `\+`, `\\`, …). Escaping is
 * what makes it an identity: unescaped, a certificate whose CN is the text `a,O=x` would read
 * like one with CN `a` and O `x`.
 */
export function distinguishedName(attributes: Readonly<Record<string, string | readonly string[] | undefined>>): string {
  const parts: string[] = [];
  for (const [type, value] of Object.entries(attributes)) {
    if (value === undefined) continue;
    for (const v of typeof value === 'string' ? [value] : value) parts.push(`${type}=${escapeDnValue(v)}`);
  }
  return parts.join(',');
}

/** RFC 4514 section 2.4: the characters a DN string escapes with a backslash. */
function escapeDnValue(value: string): string {
  let out = '';
  for (let i = 0; i < value.length; i++) {
    const c = value.charAt(i);
    const edge = (i === 0 && (c === '#' || c === ' ')) || (i === value.length - 1 && c === ' ');
    if (c === '\0') out += '\\00';
    else out += edge || '\\"+,;<>='.includes(c) ? `\\${c}` : c;
  }
  return out;
}
