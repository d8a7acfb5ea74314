import fc from 'fast-check';
import { anyId, garbageBody, mutated, validParams, versionHeader, withoutSlowCommand } from './arbitraries.js';
import { headerSafe, type BindingFuzzer } from './binding-fuzzer.js';
import { heavyDialect, heavyParamsJson, heavyVersionHeaders } from './heavy-inputs.js';
import { exchangeAndJudge } from './http-exchange.js';

/** One REST request relative to the target's REST base. */
export interface RestInput {
  readonly method: string;
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body?: string | Uint8Array;
  /** A heavy send (see `BindingFuzzer.heavy`). */
  readonly heavy?: boolean;
}

/** The routes (v1.0, tenant-prefixed, v0.3, the card) with their own verb; `{id}` and `{cid}` are filled in. */
const ROUTES: ReadonlyArray<readonly [verb: string, template: string]> = [
  ['POST', '/message:send'],
  ['POST', '/message:send'],
  ['POST', '/message:stream'],
  ['GET', '/tasks'],
  ['GET', '/tasks/{id}'],
  ['POST', '/tasks/{id}:cancel'],
  ['GET', '/tasks/{id}:subscribe'],
  ['POST', '/tasks/{id}:subscribe'],
  ['POST', '/tasks/{id}/pushNotificationConfigs'],
  ['GET', '/tasks/{id}/pushNotificationConfigs'],
  ['GET', '/tasks/{id}/pushNotificationConfigs/{cid}'],
  ['DELETE', '/tasks/{id}/pushNotificationConfigs/{cid}'],
  ['GET', '/extendedAgentCard'],
  ['GET', '/{cid}/tasks/{id}'],
  ['POST', '/{cid}/message:send'],
  ['POST', '/v1/message:send'],
  ['GET', '/v1/tasks/{id}'],
  ['GET', '/v1/card'],
  ['GET', '/../.well-known/agent-card.json'],
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
    const route = fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...ROUTES) }, { weight: 1, arbitrary: fc.webPath().map((p) => ['GET', p] as const) });
    const path = fc.tuple(route, anyId(known), anyId(known), query).map(([[verb, template], id, cid, q]) => {
      const filled = template.replace('{id}', encodeURIComponent(id)).replace('{cid}', encodeURIComponent(cid));
      const search = new URLSearchParams(q).toString();
      return { verb, path: search ? `${filled}?${search}` : filled };
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
        // Mostly the route's own verb; any verb now and then.
        otherVerb: fc.oneof(
          { weight: 5, arbitrary: fc.constant(undefined) },
          { weight: 1, arbitrary: fc.constantFrom('GET', 'POST', 'DELETE', 'PUT', 'PATCH', 'OPTIONS', 'HEAD') },
        ),
        path,
        version: versionHeader(),
        contentType: fc.oneof(
          { weight: 8, arbitrary: fc.constant('application/json') },
          { weight: 1, arbitrary: fc.constantFrom('application/a2a+json', 'text/plain', undefined) },
          { weight: 1, arbitrary: fc.string({ maxLength: 20 }) },
        ),
        body,
      })
      .map(({ otherVerb, path, version, contentType, body }) => ({
        method: otherVerb ?? path.verb,
        path: withoutSlowCommand(path.path),
        body: typeof body === 'string' ? withoutSlowCommand(body) : body,
        headers: {
          ...(version !== undefined && { 'a2a-version': headerSafe(version) }),
          ...(contentType !== undefined && { 'content-type': headerSafe(contentType) }),
        },
      }));
  },
  heavy(c) {
    const verb = c.streaming ? 'message:stream' : 'message:send';
    return {
      method: 'POST',
      path: c.generation === '0.3' ? `/v1/${verb}` : `/${verb}`,
      headers: { 'content-type': 'application/json', ...heavyVersionHeaders(c) },
      body: heavyParamsJson(c, heavyDialect(c, 'proto')),
      heavy: true,
    };
  },
  run(input, target) {
    // Paths are joined as text (no URL normalisation of `..` by us): the server sees what we drew.
    return exchangeAndJudge('rest', {
      method: input.method,
      url: `${target.restUrl}${input.path}`,
      headers: input.headers,
      body: input.body,
      heavy: input.heavy,
    });
  },
};
