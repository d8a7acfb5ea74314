/** An HTTP answer read whole: status, headers, the text, and the text as JSON (undefined when empty or not JSON). */
export interface JsonAnswer {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests walk into the answer's JSON freely
  readonly body: any;
}

/** Reads a fetch `Response` (from a socket or built in-process) as a {@link JsonAnswer}. */
export async function readJsonAnswer(res: Response): Promise<JsonAnswer> {
  const text = await res.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  return { status: res.status, headers: res.headers, text, body };
}
