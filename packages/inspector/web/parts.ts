/**
 * The composer's fields as message parts: text, a file (its bytes, or the bytes as a `data:`
 * URL), a file URL, and JSON data (parsed here, so a typo is shown before anything is sent).
 * Pure: unit-tested in Node.
 */
import type { Part } from '@a2a-polyglot/model';

/** A file the user picked. */
export interface PickedFile {
  readonly name: string;
  readonly type: string;
  readonly bytes: Uint8Array;
}

/** What the composer holds. */
export interface ComposerFields {
  readonly text: string;
  readonly file?: PickedFile;
  /** `raw`: the bytes as they are; `url`: a `data:` URL of them. */
  readonly fileMode: 'raw' | 'url';
  readonly fileUrl: string;
  readonly data: string;
}

/** The parts, or the one reason the fields cannot be sent. */
export type PartsResult = { readonly parts: Part[] } | { readonly error: string };

/** Builds the parts; an empty composer and invalid JSON are errors. */
export function composeParts(fields: ComposerFields): PartsResult {
  const parts: Part[] = [];
  if (fields.text.trim() !== '') parts.push(part({ $case: 'text', value: fields.text }));
  if (fields.file) {
    const { name, type, bytes } = fields.file;
    const mediaType = type || 'application/octet-stream';
    const content: Part['content'] =
      fields.fileMode === 'raw' ? { $case: 'raw', value: bytes } : { $case: 'url', value: `data:${mediaType};base64,${base64(bytes)}` };
    parts.push(part(content, name, mediaType));
  }
  if (fields.fileUrl.trim() !== '') {
    let url: URL;
    try {
      url = new URL(fields.fileUrl.trim());
    } catch {
      return { error: `The file URL "${fields.fileUrl}" is not a URL.` };
    }
    parts.push(part({ $case: 'url', value: url.href }, url.pathname.split('/').pop() ?? ''));
  }
  if (fields.data.trim() !== '') {
    const parsed = parseJson(fields.data);
    if ('error' in parsed) return parsed;
    parts.push(part({ $case: 'data', value: parsed.value }, '', 'application/json'));
  }
  if (parts.length === 0) return { error: 'Write some text, pick a file or enter data first.' };
  return { parts };
}

/** Parses the data field; the error names the position, as JSON.parse reports it. */
export function parseJson(text: string): { readonly value: unknown } | { readonly error: string } {
  try {
    return { value: JSON.parse(text) };
  } catch (error) {
    return { error: `The data is not valid JSON: ${(error as Error).message}` };
  }
}

function part(content: Part['content'], filename = '', mediaType = ''): Part {
  return { content, metadata: undefined, filename, mediaType };
}

/** Base64 of bytes; `btoa` exists in browsers and Node ≥ 16, and takes a binary string. */
function base64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}
