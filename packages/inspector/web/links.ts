/**
 * What the page lets a person click. Why so strict: cards and parts come from agents and from
 * other callers of an agent (the task list shows every task, with its history), and the page
 * runs in the executor's origin, beside the A2A endpoints. A `javascript:` link would run their
 * script there; a file opened with its own media type (an HTML part as a `text/html` blob URL,
 * a `data:text/html` URL) would render there and could read every task. So only absolute
 * http(s) URLs become links (they open in their own origin), and file bytes, whether sent raw
 * or as a `data:` URL, are offered as downloads of a neutral type that no browser renders.
 */
/** The media type file bytes are handed to the browser as: downloaded, never rendered. */
export const DOWNLOAD_TYPE = 'application/octet-stream';

/** `value` when it is an absolute http(s) URL, else undefined (`javascript:`, `data:`, `blob:`, relative, …). */
export function webUrl(value: string): string | undefined {
  if (!URL.canParse(value)) return undefined;
  const url = new URL(value);
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
}

/**
 * The bytes of a `data:` URL (RFC 2397: base64 or percent-encoded), or undefined when `value`
 * is not one or does not decode. Hand-written because the browser's own decoder, `fetch`, is
 * out of reach: the page's Content-Security-Policy does not let it connect to `data:` URLs.
 */
export function dataUrlBytes(value: string): Uint8Array | undefined {
  const match = /^data:([^,]*),(.*)$/is.exec(value.trim());
  if (!match) return undefined;
  const [, meta = '', payload = ''] = match;
  try {
    if (/;base64$/i.test(meta)) return Uint8Array.from(atob(payload.replace(/\s+/g, '')), (c) => c.charCodeAt(0));
    return new TextEncoder().encode(decodeURIComponent(payload));
  } catch {
    return undefined;
  }
}
