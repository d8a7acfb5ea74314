/**
 * Artifacts assembled from a stream as a person wants to read them: a chunk with
 * `append: true` adds its parts to the artifact (text running on into the previous text part),
 * one without replaces it, and `lastChunk` marks it complete. A Task snapshot (first event of
 * a subscription, a blocking answer) replaces everything. Pure: unit-tested in Node.
 */
import type { Artifact, Part, Task, TaskArtifactUpdateEvent } from '@a2a-polyglot/model';

/** One artifact as shown. */
export interface AssembledArtifact {
  readonly artifactId: string;
  readonly name: string;
  readonly parts: Part[];
  /** Chunks received for it in this view. */
  chunks: number;
  /** `lastChunk` seen, or it came whole in a snapshot. */
  complete: boolean;
}

/** The artifacts of one task view, in order of first appearance. */
export class ArtifactAssembler {
  private readonly byId = new Map<string, AssembledArtifact>();

  /** Applies one artifact update; returns the artifact as it now stands. */
  apply(update: TaskArtifactUpdateEvent): AssembledArtifact | undefined {
    const artifact = update.artifact;
    if (!artifact) return undefined;
    const known = this.byId.get(artifact.artifactId);
    if (update.append && known) {
      for (const part of artifact.parts) appendPart(known.parts, part);
      known.chunks++;
      known.complete = update.lastChunk;
      return known;
    }
    const fresh = assembled(artifact, update.lastChunk);
    this.byId.set(artifact.artifactId, fresh);
    return fresh;
  }

  /**
   * Replaces everything with a snapshot's artifacts. One this view has not seen stream counts
   * as complete unless the task still runs; one it has keeps its chunk count and completeness.
   */
  snapshot(task: Task, running: boolean): void {
    const before = new Map(this.byId);
    this.byId.clear();
    for (const artifact of task.artifacts) {
      const fresh = assembled(artifact, !running);
      const seen = before.get(artifact.artifactId);
      if (seen) {
        fresh.chunks = seen.chunks; // chunks seen stay counted
        fresh.complete = seen.complete; // a snapshot has no lastChunk: what the stream said stands
      }
      this.byId.set(artifact.artifactId, fresh);
    }
  }

  /** Every artifact, in order of first appearance. */
  list(): AssembledArtifact[] {
    return [...this.byId.values()];
  }
}

function assembled(artifact: Artifact, complete: boolean): AssembledArtifact {
  const parts: Part[] = [];
  for (const part of artifact.parts) appendPart(parts, part);
  return { artifactId: artifact.artifactId, name: artifact.name, parts, chunks: 1, complete };
}

/** Text running on into a text part joins it; anything else is a part of its own. */
function appendPart(parts: Part[], part: Part): void {
  const last = parts.at(-1);
  if (last?.content?.$case === 'text' && part.content?.$case === 'text' && !part.filename && !part.mediaType) {
    parts[parts.length - 1] = { ...last, content: { $case: 'text', value: last.content.value + part.content.value } };
  } else {
    parts.push(part);
  }
}
