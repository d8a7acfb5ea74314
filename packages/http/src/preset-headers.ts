import type { ServerResponse } from 'node:http';

/** Headers a listener gave a response before handing it to a binding (see {@link presetHeaders}). */
const presets = new WeakMap<ServerResponse, Readonly<Record<string, string>>>();

/**
 * Gives `res` headers that every answer written by `writeNodeResult` (and an SSE stream's
 * `NodeSseSink`) sends under its own, as `res.setHeader` before it would, but without the
 * header store: a `setHeader` makes node keep a dictionary of every header (its own and the
 * answer's, each as a `[name, value]` array) for as long as the response lives, about 700
 * bytes per open SSE stream. The answer's headers win on a name clash, as with `setHeader`
 * (names are compared as given: pass lower-case ones). For a response only a binding writes.
 */
export function presetHeaders(res: ServerResponse, headers: Readonly<Record<string, string>>): void {
  presets.set(res, headers);
}

/** `headers` under what {@link presetHeaders} gave `res` (the same object when nothing was). */
export function withPresetHeaders(res: ServerResponse, headers: Readonly<Record<string, string>>): Readonly<Record<string, string>> {
  const preset = presets.get(res);
  return preset ? Object.assign({}, preset, headers) : headers;
}
