/**
 * What the page sends to authenticate: a token as `Authorization: Bearer`, or as the value of
 * a header of any name (`X-API-Key` by default), plus any other headers typed one per line.
 * Pure (no DOM): unit-tested in Node.
 */

/** The credentials and headers of the page's calls. */
export interface PageAuth {
  /** The secret typed in the Token field ('' = none). */
  readonly token: string;
  /** `bearer`: `Authorization: Bearer <token>`; `header`: `<headerName>: <token>`. */
  readonly kind: 'bearer' | 'header';
  readonly headerName: string;
  /** Other headers, sent on every call (not on the card GET: cards are public, and a plain GET needs no CORS preflight). */
  readonly headers: Readonly<Record<string, string>>;
}

/** A header name as HTTP allows it (RFC 9110 token). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Checks a header name; the error says what is wrong. */
export function headerNameProblem(name: string): string | undefined {
  if (name === '') return 'The header name is empty.';
  return HEADER_NAME.test(name) ? undefined : `"${name}" is not a header name (letters, digits and - only, no spaces or colons).`;
}

/** `Name: value` lines (blank lines and `#` comments skipped) as headers, or the first line that is not one. */
export function parseHeaderLines(text: string): { readonly headers: Record<string, string> } | { readonly error: string } {
  const headers: Record<string, string> = {};
  for (const [i, raw] of text.split(/\r?\n/).entries()) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const colon = line.indexOf(':');
    if (colon <= 0) return { error: `Header line ${i + 1} is not "Name: value".` };
    const name = line.slice(0, colon).trim();
    const problem = headerNameProblem(name);
    if (problem) return { error: `Header line ${i + 1}: ${problem}` };
    headers[name] = line.slice(colon + 1).trim();
  }
  return { headers };
}

/** The names whose values are secrets, masked in the raw pane. */
export function secretHeaderNames(auth: PageAuth): string[] {
  return auth.kind === 'header' ? [auth.headerName] : [];
}
