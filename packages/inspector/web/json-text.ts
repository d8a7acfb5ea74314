/** Bodies as the raw pane shows them. Pure: unit-tested in Node. */

/** `text` re-indented when it is JSON, as it is otherwise. */
export function prettyJson(text: string): string {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return text;
  try {
    return JSON.stringify(JSON.parse(trimmed), null, 2);
  } catch {
    return text;
  }
}
