import fc from 'fast-check';
import { anyId, garbageBody, mutated, validParams, versionHeader, withoutSlowCommand } from './arbitraries.js';
import { headerSafe, type BindingFuzzer } from './binding-fuzzer.js';
import { exchangeAndJudge } from './http-exchange.js';

/** One REST request relative to the target's REST base. */
export interface RestInput {
  readonly method: string;
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body?: string | Uint8Array;
}

/** Path templates of the v1.0 routes, the v0.3 routes and the card; `{id}` and `{cid}` are filled in. */
const PATHS = [
  '/message:send',
  '/message:stream',
  '/tasks',
  '/tasks/{id}',
  '/tasks/{id}:cancel',
  '/tasks/{id}:subscribe',
  '/tasks/{id}/pushNotificationConfigs',
  '/tasks/{id}/pushNotificationConfigs/{cid}',
  '/extendedAgentCard',
  '/{cid}/tasks/{id}',
  '/{cid}/message:send',
  '/v1/message:send',
  '/v1/tasks/{id}',
  '/v1/card',
  '/../.well-known/agent-card.json',
];

/** Query parameters of ListTasks / GetTask, right or wrong. */
const query = fc.dictionary(
  fc.constantFrom('pageSize', 'pageToken', 'historyLength', 'includeArtifacts', 'status', 'contextId', 'statusTimestampAfter', 'tenant', 'x'),
  fc.oneof(fc.integer({ min: -10, max: 10_000 }).map(String), fc.string({ maxLength: 20 }), fc.constantFrom('true', 'false', 'TASK_STATE_WORKING', '')),
  { maxKeys: 4 },
);

/** REST (HTTP+JSON): every route and method, ids of every kind, query strings, mutated and random bodies. */
export const restFuzzer: BindingFuzzer<RestInput> = {
  name: 'rest',
  inputs(known) {
    const path = fc
      .tuple(fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...PATHS) }, { weight: 1, arbitrary: fc.webPath() }), anyId(known), anyId(known), query)
      .map(([template, id, cid, q]) => {
        const filled = template.replace('{id}', encodeURIComponent(id)).replace('{cid}', encodeURIComponent(cid));
        const search = new URLSearchParams(q).toString();
        return search ? `${filled}?${search}` : filled;
      });
    const sendBody = validParams('SendMessage', known);
    const body: fc.Arbitrary<string | Uint8Array | undefined> = fc.oneof(
      { weight: 2, arbitrary: sendBody.map((b) => JSON.stringify(b)) },
      { weight: 3, arbitrary: mutated(sendBody).map((b) => JSON.stringify(b) ?? 'null') },
      { weight: 1, arbitrary: mutated(validParams('CreateTaskPushNotificationConfig', known)).map((b) => JSON.stringify(b) ?? 'null') },
      { weight: 2, arbitrary: garbageBody() },
      { weight: 1, arbitrary: fc.constant(undefined) },
    );
    return fc
      .record({
        method: fc.constantFrom('GET', 'GET', 'POST', 'POST', 'POST', 'DELETE', 'PUT', 'PATCH', 'OPTIONS', 'HEAD'),
        path,
        version: versionHeader(),
        contentType: fc.oneof(fc.constantFrom('application/json', 'application/json', 'application/a2a+json', 'text/plain', undefined), fc.string({ maxLength: 20 })),
        body,
      })
      .map(({ method, path, version, contentType, body }) => ({
        method,
        path: withoutSlowCommand(path),
        body: typeof body === 'string' ? withoutSlowCommand(body) : body,
        headers: {
          ...(version !== undefined && { 'a2a-version': headerSafe(version) }),
          ...(contentType !== undefined && { 'content-type': headerSafe(contentType) }),
        },
      }));
  },
  run(input, target) {
    // Paths are joined as text (no URL normalisation of `..` by us): the server sees what we drew.
    return exchangeAndJudge('rest', { method: input.method, url: `${target.restUrl}${input.path}`, headers: input.headers, body: input.body });
  },
};
