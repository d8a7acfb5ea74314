import { type ListTasksResponse, Task } from './gen/lf/a2a/v1/a2a.js';
import { messageFields } from './schema-lookup.js';

/**
 * JSON form of a ListTasksResponse as the A2A spec requires it on the wire.
 * The three scalar fields are always present, unlike in plain ProtoJSON.
 */
export interface ListTasksResponseJson {
  /** ProtoJSON of each Task (`artifacts` present iff artifacts were requested). */
  tasks: Record<string, unknown>[];
  /** Empty string on the last page. */
  nextPageToken: string;
  pageSize: number;
  totalSize: number;
}

/** Task JSON keys in proto field order, used to place an added `artifacts: []` where ProtoJSON would. */
const TASK_JSON_KEYS = messageFields('lf.a2a.v1.Task').map((f) => f.json);

/**
 * Serialises a ListTasksResponse for the JSON bindings (JSON-RPC result / HTTP+JSON body).
 *
 * Why not `ListTasksResponse.toJSON`: a default ProtoJSON encoder omits empty / zero values,
 * but the spec makes `nextPageToken` (empty string on the last page), `pageSize` and
 * `totalSize` REQUIRED, so they are always emitted, and `tasks` is always an array. Artifacts
 * follow the request's `includeArtifacts`: when false they are left out of every task even if
 * the tasks carry some; when true every task has an `artifacts` array, `[]` if it has none.
 */
export function listTasksResponseToJson(resp: ListTasksResponse, includeArtifacts: boolean): ListTasksResponseJson {
  return {
    tasks: resp.tasks.map((task) => listedTaskToJson(task, includeArtifacts)),
    nextPageToken: resp.nextPageToken,
    pageSize: resp.pageSize,
    totalSize: resp.totalSize,
  };
}

function listedTaskToJson(task: Task, includeArtifacts: boolean): Record<string, unknown> {
  const json = Task.toJSON(includeArtifacts ? task : { ...task, artifacts: [] }) as Record<string, unknown>;
  if (!includeArtifacts || json.artifacts !== undefined) return json;
  const withArtifacts: Record<string, unknown> = { ...json, artifacts: [] };
  const ordered: Record<string, unknown> = {};
  for (const key of TASK_JSON_KEYS) if (key in withArtifacts) ordered[key] = withArtifacts[key];
  return ordered;
}
