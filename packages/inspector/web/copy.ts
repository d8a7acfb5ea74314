/**
 * Copy buttons: ids and raw JSON are for pasting elsewhere (a bug report, `a2a get <id>`).
 * The Clipboard API where the page may use it (a secure context: https or loopback), else the
 * older `execCommand('copy')` on a hidden text area, which works on plain http too.
 */
import { h } from './dom.js';

/** How long the button says "Copied". */
const COPIED_MS = 1500;

/** Puts `text` on the clipboard; resolves false when the browser refused both ways. */
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = h('textarea', { class: 'offscreen', readonly: true, 'aria-hidden': 'true' });
    area.value = text;
    document.body.append(area);
    area.select();
    const done = document.execCommand('copy');
    area.remove();
    return done;
  }
}

/** A small button copying what `text()` returns at the time of the click; it says whether it worked. */
export function copyButton(text: () => string, title: string, label = 'Copy', className = 'quiet copy'): HTMLButtonElement {
  const button = h('button', { type: 'button', class: className, title, 'aria-label': title }, label);
  let timer: ReturnType<typeof setTimeout> | undefined;
  button.addEventListener('click', () => {
    const value = text();
    if (value === '') return;
    void copyText(value).then((ok) => {
      button.textContent = ok ? 'Copied' : 'Copy failed';
      button.dataset.copied = ok ? 'yes' : 'no';
      clearTimeout(timer);
      timer = setTimeout(() => {
        button.textContent = label;
        delete button.dataset.copied;
      }, COPIED_MS);
    });
  });
  return button;
}
