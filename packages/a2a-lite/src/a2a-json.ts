/**
 * The parts of A2A v1.0 ProtoJSON this package reads and writes. Plain JSON on purpose: the
 * Lite side talks to any A2A agent with fetch + JSON-RPC, without the generated model.
 */
export interface PartJson {
  readonly text?: string;
  readonly data?: unknown;
  readonly url?: string;
  readonly raw?: string;
  readonly filename?: string;
  readonly mediaType?: string;
  readonly metadata?: Record<string, unknown>;
}

export interface MessageJson {
  readonly messageId: string;
  readonly role: string;
  readonly parts: readonly PartJson[];
  readonly taskId?: string;
  readonly contextId?: string;
  readonly metadata?: Record<string, unknown>;
}

export interface TaskStatusJson {
  readonly state: string;
  readonly message?: MessageJson;
}

export interface ArtifactJson {
  readonly artifactId: string;
  readonly name?: string;
  readonly parts: readonly PartJson[];
}

export interface TaskJson {
  readonly id: string;
  readonly contextId?: string;
  readonly status?: TaskStatusJson;
  readonly artifacts?: readonly ArtifactJson[];
}

/** One event of a stream, or the result of SendMessage (`task` or `message`). */
export interface StreamResponseJson {
  readonly task?: TaskJson;
  readonly message?: MessageJson;
  readonly statusUpdate?: { readonly taskId: string; readonly contextId?: string; readonly status: TaskStatusJson };
  readonly artifactUpdate?: { readonly taskId: string; readonly artifact: ArtifactJson; readonly append?: boolean; readonly lastChunk?: boolean };
}

/** Concatenated text parts. */
export function textOf(parts: readonly PartJson[] | undefined): string {
  return (parts ?? []).map((p) => p.text ?? '').join('');
}
