/**
 * Parts as the page shows them: text as text, files as downloads (bytes and `data:` URLs
 * through a Blob URL of a neutral type, http(s) URLs as links, anything else as text: see
 * `links.ts` for why), data as a collapsible tree.
 */
import type { Part } from '@a2a-polyglot/model';
import { dataTree } from './data-tree.js';
import { h } from './dom.js';
import { dataUrlBytes, DOWNLOAD_TYPE, webUrl } from './links.js';
import { markdownView } from './markdown.js';

/** {@link partView} of an agent's part: its text as Markdown. */
export function agentPartView(part: Part): HTMLElement {
  return partView(part, true);
}

/** Blob URLs per part, so re-rendering a streaming artifact does not leak a URL each time. */
const blobUrls = new WeakMap<Part, string>();

/** Renders one part; text is Markdown when `markdown` (the agent's text), else as it is (what the user typed). */
export function partView(part: Part, markdown = false): HTMLElement {
  const content = part.content;
  switch (content?.$case) {
    case 'text':
      return markdown ? markdownView(content.value) : h('pre', { class: 'text-part' }, content.value);
    case 'raw':
      return fileDownload(part, content.value);
    case 'url':
      return urlView(part, content.value);
    case 'data':
      return h('div', { class: 'data-part' }, dataTree(content.value));
    default:
      return h('p', { class: 'muted' }, '(empty part)');
  }
}

/** Bytes as a download: the Blob's type is neutral whatever the part declares, so opening it never renders it here. */
function fileDownload(part: Part, bytes: Uint8Array): HTMLElement {
  let url = blobUrls.get(part);
  if (!url) {
    url = URL.createObjectURL(new Blob([bytes as BlobPart], { type: DOWNLOAD_TYPE }));
    blobUrls.set(part, url);
  }
  const name = part.filename || 'file';
  return h(
    'p',
    {},
    h('a', { href: url, download: name, class: 'file-part' }, `Download ${name}`),
    h('span', { class: 'muted' }, ` (${bytes.length} bytes, ${part.mediaType || 'unknown type'})`),
  );
}

/** A file URL: `data:` URLs are downloaded as their bytes, http(s) ones linked, others shown as text. */
function urlView(part: Part, value: string): HTMLElement {
  const bytes = dataUrlBytes(value);
  if (bytes) return fileDownload(part, bytes);
  const name = part.filename || value.slice(0, 60);
  const href = webUrl(value);
  if (!href) return h('p', { class: 'muted', title: 'Not a web link, so not clickable' }, `File ${name}: ${value.slice(0, 200)}`);
  return h(
    'p',
    {},
    h('a', { href, download: part.filename || true, class: 'file-part', rel: 'noreferrer' }, `Download ${name}`),
    part.mediaType && h('span', { class: 'muted' }, ` (${part.mediaType})`),
  );
}
