/**
 * Agent text as Markdown: agents answer in Markdown (lists, code, emphasis), and a `<pre>` of
 * it is hard to read. `marked` turns it into HTML and DOMPurify (the sanitiser browsers' own
 * projects rely on) removes everything active from that HTML before it reaches the page:
 * scripts, event handlers, forms, styles, SVG and MathML. On top of DOMPurify's rules, links
 * follow the page's one rule (links.ts: only absolute http(s) URLs are clickable) and images
 * are dropped (the page's Content-Security-Policy would not load them anyway).
 */
import DOMPurify from 'dompurify';
import { Marked } from 'marked';
import { h } from './dom.js';
import { webUrl } from './links.js';

/** One parser for the page: GitHub-flavoured, line breaks kept as agents mean them. */
const marked = new Marked({ gfm: true, breaks: true, async: false });

let hooked = false;

/** DOMPurify's hook for links, added once: a non-web `href` is removed, web ones open without a referrer. */
function hookLinks(): void {
  if (hooked) return;
  hooked = true;
  DOMPurify.addHook('afterSanitizeAttributes', (node) => {
    if (node.tagName !== 'A') return;
    const href = webUrl(node.getAttribute('href') ?? '');
    if (href) {
      node.setAttribute('href', href);
      node.setAttribute('rel', 'noreferrer');
    } else node.removeAttribute('href');
  });
}

/** `text` (Markdown) as sanitised HTML: a fragment safe to put in the page. */
export function markdownFragment(text: string): DocumentFragment {
  hookLinks();
  const html = marked.parse(text) as string;
  return DOMPurify.sanitize(html, {
    USE_PROFILES: { html: true },
    FORBID_TAGS: ['img', 'style', 'form', 'input', 'button', 'textarea', 'select', 'iframe'],
    RETURN_DOM_FRAGMENT: true,
  });
}

/** A text part of the agent rendered as Markdown (`.text-part.markdown`). */
export function markdownView(text: string): HTMLElement {
  const view = h('div', { class: 'text-part markdown' });
  view.append(markdownFragment(text));
  return view;
}
