import { GRPC_METADATA, resumeCursor } from '@a2a-polyglot/core';
import { Metadata } from '@grpc/grpc-js';

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
  md.set(GRPC_METADATA.extensions, activated.join(','));
  return md;
}

/**
 * Parses the `a2a-last-event-id` resume cursor with core's one rule (`resumeCursor`): absent ⇒
 * undefined, otherwise a non-negative integer or InvalidParams (a client bug worth reporting,
 * not ignoring).
 */
export function parseLastEventId(metadata: Metadata): number | undefined {
  return resumeCursor(metadata.get(GRPC_METADATA.lastEventId)[0], GRPC_METADATA.lastEventId);
}
