import { resumeCursor } from '@a2a-polyglot/core';
import { Metadata } from '@grpc/grpc-js';

/**
 * The gRPC metadata keys this binding reads or writes. gRPC metadata keys are lower-case
 * on the wire; lookups through {@link metadataHeaders} are case-insensitive anyway.
 */
export const METADATA = {
  /** A2A service parameter: protocol version (`1.0`). Required on every call. */
  version: 'a2a-version',
  /** A2A service parameter: requested extensions (request) / activated extensions (response). */
  extensions: 'a2a-extensions',
  /**
   * Our extension, request metadata: the id of the agent a multi-agent gateway should route
   * the call to (see `agentRouter`). Without it, the request's `tenant` may name the agent.
   */
  agent: 'a2a-agent',
  /** Credentials, as declared by the agent card's security schemes. */
  authorization: 'authorization',
  /**
   * Our extension, request metadata of SubscribeToTask: resume after this event number
   * (the gRPC counterpart of SSE `Last-Event-ID`).
   */
  lastEventId: 'a2a-last-event-id',
  /** Our extension, initial response metadata of a stream: the number of its first event. */
  streamFirstSeq: 'a2a-stream-first-seq',
  /** Our extension, trailing metadata of a stream that ended normally: its last event number. */
  streamLastSeq: 'a2a-last-seq',
} as const;

/**
 * Flattens gRPC metadata into the header record `callContext` expects. Binary (`-bin`)
 * entries are dropped (no A2A parameter is binary); repeated keys are comma-joined, as
 * HTTP does for repeated headers.
 */
export function metadataHeaders(metadata: Metadata): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of Object.keys(metadata.getMap())) {
    if (key.endsWith('-bin')) continue;
    const values = metadata.get(key).filter((v): v is string => typeof v === 'string');
    if (values.length > 0) out[key] = values.join(',');
  }
  return out;
}

/** Response metadata echoing the activated extensions, or undefined when there are none. */
export function extensionsMetadata(activated: readonly string[] | undefined): Metadata | undefined {
  if (!activated || activated.length === 0) return undefined;
  const md = new Metadata();
  md.set(METADATA.extensions, activated.join(','));
  return md;
}

/**
 * Parses the `a2a-last-event-id` resume cursor with core's one rule (`resumeCursor`): absent ⇒
 * undefined, otherwise a non-negative integer or InvalidParams (a client bug worth reporting,
 * not ignoring).
 */
export function parseLastEventId(metadata: Metadata): number | undefined {
  return resumeCursor(metadata.get(METADATA.lastEventId)[0], METADATA.lastEventId);
}
