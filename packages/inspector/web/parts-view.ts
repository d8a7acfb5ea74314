/**
 * Parts as the page shows them: text as text, files as download links (bytes through a Blob
 * URL, URLs as they are), data as a collapsible tree.
 */
import type { Part } from '@a2a-polyglot/model';
import { dataTree } from './data-tree.js';
import { h } from './dom.js';

/** Blob URLs per part, so re-rendering a streaming artifact does not leak a URL each time. */
const blobUrls = new WeakMap<Part, string>();

/** Renders one part. */
export function partView(part: Part): HTMLElement {
  const content = part.content;
  switch (content?.$case) {
    case 'text':
      return h('pre', { class: 'text-part' }, content.value);
    case 'raw': {
      let url = blobUrls.get(part);
      if (!url) {
        url = URL.createObjectURL(new Blob([content.value as BlobPart], { type: part.mediaType || 'application/octet-stream' }));
        blobUrls.set(part, url);
      }
      const name = part.filename || 'file';
      return h(
        'p',
        {},
        h('a', { href: url, download: name, class: 'file-part' }, `Download ${name}`),
        h('span', { class: 'muted' }, ` (${content.value.length} bytes, ${part.mediaType || 'unknown type'})`),
      );
    }
    case 'url':
      return h(
        'p',
        {},
        h(
          'a',
          { href: content.value, download: part.filename || true, class: 'file-part', rel: 'noreferrer' },
          `Download ${part.filename || content.value.slice(0, 60)}`,
        ),
        part.mediaType && h('span', { class: 'muted' }, ` (${part.mediaType})`),
      );
    case 'data':
      return h('div', { class: 'data-part' }, dataTree(content.value));
    default:
      return h('p', { class: 'muted' }, '(empty part)');
  }
}
