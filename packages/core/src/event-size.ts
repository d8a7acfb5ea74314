import type { Artifact, Part, StreamResponse, TaskArtifactUpdateEvent } from '@a2a-polyglot/model';
import { ARRAY_HEADER, OBJECT_HEADER, SLOT, sizeOf } from './estimate-size.js';

/**
 * `estimateBytes` of a logged event, with the artifact-update shape walked field by field.
 *
 * Why: a streamed chunk is an artifact update, every one is measured when the event log holds
 * it, and the generic walk (a `for-in` over eight objects of different shapes) was about a
 * tenth of a streamed event's CPU. This walk names the model's fields instead, and hands every
 * value it does not know the shape of (metadata, a part's content value, an unexpected part)
 * to the generic walk at the depth it sits at, so it gives the same figure. It relies on the
 * envelope objects (event, payload, update, artifact, part, content) holding the model's
 * fields only, as the core's builders and the model's decoders make them: a member outside the
 * model on one of those would not be counted. Other events go to the generic walk.
 * @internal
 */
export function estimateEventBytes(event: StreamResponse): number {
  const payload = event.payload;
  if (payload?.$case !== 'artifactUpdate') return sizeOf(event, 0);
  // event { payload } and payload { $case, value }: the value is walked at depth 2.
  return OBJECT_HEADER + SLOT + (OBJECT_HEADER + 2 * SLOT + sizeOf(payload.$case, 2) + updateBytes(payload.value));
}

/** A TaskArtifactUpdateEvent at depth 2. */
function updateBytes(update: TaskArtifactUpdateEvent): number {
  let total =
    OBJECT_HEADER +
    6 * SLOT +
    sizeOf(update.taskId, 3) +
    sizeOf(update.contextId, 3) +
    artifactBytes(update.artifact) +
    sizeOf(update.append, 3) +
    sizeOf(update.lastChunk, 3) +
    sizeOf(update.metadata, 3);
  // A2A 1.1's optional member, present on the copies made for a 1.1 stream.
  if ('generation' in update) total += SLOT + sizeOf(update.generation, 3);
  return total;
}

/** An Artifact at depth 3. */
function artifactBytes(artifact: Artifact | undefined): number {
  if (artifact === undefined) return sizeOf(artifact, 3);
  return (
    OBJECT_HEADER +
    6 * SLOT +
    sizeOf(artifact.artifactId, 4) +
    sizeOf(artifact.name, 4) +
    sizeOf(artifact.description, 4) +
    partsBytes(artifact.parts) +
    sizeOf(artifact.metadata, 4) +
    sizeOf(artifact.extensions, 4)
  );
}

/** The parts array at depth 4. */
function partsBytes(parts: Part[]): number {
  if (!Array.isArray(parts)) return sizeOf(parts, 4);
  let total = ARRAY_HEADER;
  for (let i = 0; i < parts.length; i++) total += SLOT + partBytes(parts[i]);
  return total;
}

/** A Part at depth 5. */
function partBytes(part: Part | undefined): number {
  if (typeof part !== 'object' || part === null) return sizeOf(part, 5);
  const content = part.content;
  // content { $case, value } at depth 6; its value at depth 7.
  const contentBytes =
    typeof content === 'object' && content !== null ? OBJECT_HEADER + 2 * SLOT + sizeOf(content.$case, 7) + sizeOf(content.value, 7) : sizeOf(content, 6);
  return OBJECT_HEADER + 4 * SLOT + contentBytes + sizeOf(part.metadata, 6) + sizeOf(part.filename, 6) + sizeOf(part.mediaType, 6);
}
