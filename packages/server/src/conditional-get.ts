/**
 * Whether a GET or HEAD may be answered 304 Not Modified (RFC 9110 §13.2.2): `If-None-Match`
 * decides when the request has it (it is exact, dates are not); otherwise `If-Modified-Since`,
 * when it is a valid date at or after `lastModified`. An unreadable date is ignored.
 */
export function notModified(header: (name: string) => string | undefined, etag: string, lastModified: Date): boolean {
  const ifNoneMatch = header('if-none-match');
  if (ifNoneMatch !== undefined) return etagMatches(ifNoneMatch, etag);
  const since = header('if-modified-since');
  if (since === undefined) return false;
  const date = Date.parse(since);
  return Number.isFinite(date) && lastModified.getTime() <= date;
}

/** `If-None-Match` per RFC 9110: `*` or a list of (weak or strong) tags, compared weakly. */
function etagMatches(header: string, etag: string): boolean {
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t.replace(/^W\//, '') === etag;
  });
}
