import { A2AError, A2AErrorCode, type OperationName } from '@a2a-polyglot/core';
import { clipInput } from '@a2a-polyglot/model';

/** HTTP verbs the REST binding serves. */
export type RestVerb = 'GET' | 'POST' | 'DELETE';

/** One REST route of an operation (spec §4 table, proto `google.api.http` bindings). */
export interface RestRoute {
  readonly verb: RestVerb;
  /**
   * Pattern relative to the REST base URL, without the optional `/{tenant}` prefix. `{name}`
   * is a path parameter, `{name}:verb` one followed by a custom verb.
   */
  readonly pattern: string;
  /** The core operation the route runs. */
  readonly operation: OperationName;
  /** Success status: 200, except create (201) and delete (204, empty body). */
  readonly status: 200 | 201 | 204;
}

/**
 * Every REST route. Each also exists under a `/{tenant}` prefix (proto `additional_bindings`).
 * SubscribeToTask is served on GET (proto) and POST (spec prose, SDK clients): spec §0 item 8.
 */
export const REST_ROUTES: readonly RestRoute[] = [
  { verb: 'POST', pattern: '/message:send', operation: 'SendMessage', status: 200 },
  { verb: 'POST', pattern: '/message:stream', operation: 'SendStreamingMessage', status: 200 },
  { verb: 'GET', pattern: '/tasks', operation: 'ListTasks', status: 200 },
  { verb: 'POST', pattern: '/tasks/{id}:cancel', operation: 'CancelTask', status: 200 },
  { verb: 'GET', pattern: '/tasks/{id}:subscribe', operation: 'SubscribeToTask', status: 200 },
  { verb: 'POST', pattern: '/tasks/{id}:subscribe', operation: 'SubscribeToTask', status: 200 },
  { verb: 'GET', pattern: '/tasks/{id}', operation: 'GetTask', status: 200 },
  { verb: 'POST', pattern: '/tasks/{taskId}/pushNotificationConfigs', operation: 'CreateTaskPushNotificationConfig', status: 201 },
  { verb: 'GET', pattern: '/tasks/{taskId}/pushNotificationConfigs', operation: 'ListTaskPushNotificationConfigs', status: 200 },
  { verb: 'GET', pattern: '/tasks/{taskId}/pushNotificationConfigs/{id}', operation: 'GetTaskPushNotificationConfig', status: 200 },
  { verb: 'DELETE', pattern: '/tasks/{taskId}/pushNotificationConfigs/{id}', operation: 'DeleteTaskPushNotificationConfig', status: 204 },
  { verb: 'GET', pattern: '/extendedAgentCard', operation: 'GetExtendedAgentCard', status: 200 },
];

/** A path matched against a route table. */
export type RouteMatch<R extends RestRoute = RestRoute> =
  /** The path and verb match a route. `params` are URL-decoded path fields (`id`, `taskId`). */
  | { readonly kind: 'route'; readonly route: R; readonly params: Readonly<Record<string, string>>; readonly tenant?: string }
  /** The path is known but not for this verb (405); `allow` lists the verbs it has. */
  | { readonly kind: 'wrong-verb'; readonly allow: readonly RestVerb[] }
  | { readonly kind: 'not-found' };

/** One segment of a compiled pattern: a literal, or a parameter with an optional `:verb` suffix. */
type Segment = { readonly literal: string } | { readonly param: string; readonly suffix: string };

interface CompiledPattern<R extends RestRoute> {
  readonly pattern: string;
  readonly tenant: boolean;
  readonly segments: readonly Segment[];
  readonly routes: readonly R[];
}

/**
 * A matcher over a route table (the v1.0 table below, the v0.3 one in v03-routes.ts).
 * Patterns are tried without tenant first (so `/tasks/x` is GetTask, not a tenant named
 * `tasks`), then, with `tenant`, under a `/{tenant}` prefix; within each group `{id}:verb`
 * before plain `{id}` (so `/tasks/x:cancel` is never read as a task id). Path parameters are
 * URL-decoded after matching, so an id holding an encoded `:` or `/` survives; a malformed
 * escape is InvalidRequest.
 */
export function routeMatcher<R extends RestRoute>(routes: readonly R[], options: { readonly tenant: boolean }): (verb: string, path: string) => RouteMatch<R> {
  const compiled = compile(routes, options.tenant);
  // The matches of routes without parameters (`POST /message:send`), remembered per verb and
  // path: a set bounded by the table, and the path most requests take.
  const fixed = new Map<string, Map<string, RouteMatch<R>>>();
  return (verb, path) => {
    const known = fixed.get(verb)?.get(path);
    if (known) return known;
    if (!path.startsWith('/')) return { kind: 'not-found' };
    const raw = path.slice(1).split('/');
    for (const pattern of compiled) {
      const captured = matchSegments(pattern, raw);
      if (!captured) continue;
      const route = pattern.routes.find((r) => r.verb === verb);
      if (!route) return { kind: 'wrong-verb', allow: pattern.routes.map((r) => r.verb) };
      const { tenant, ...params } = captured;
      if (tenant === undefined && pattern.segments.every((segment) => 'literal' in segment)) {
        const match: RouteMatch<R> = Object.freeze({ kind: 'route', route, params: Object.freeze(params) });
        const byPath = fixed.get(verb) ?? new Map<string, RouteMatch<R>>();
        fixed.set(verb, byPath);
        byPath.set(path, match);
        return match;
      }
      return { kind: 'route', route, params, ...(tenant === undefined ? {} : { tenant }) };
    }
    return { kind: 'not-found' };
  };
}

/** Matches a path relative to the REST base URL (no query string) and a verb against {@link REST_ROUTES}. */
export const matchRoute: (verb: string, path: string) => RouteMatch = routeMatcher(REST_ROUTES, { tenant: true });

function matchSegments(compiled: CompiledPattern<RestRoute>, raw: readonly string[]): Record<string, string> | undefined {
  const offset = compiled.tenant ? 1 : 0;
  if (raw.length !== compiled.segments.length + offset) return undefined;
  const captured: Record<string, string> = {};
  if (compiled.tenant) {
    const tenant = raw[0];
    if (tenant === undefined || tenant === '') return undefined;
    captured.tenant = tenant;
  }
  for (const [i, segment] of compiled.segments.entries()) {
    const value = raw[i + offset];
    if (value === undefined) return undefined;
    if ('literal' in segment) {
      if (value !== segment.literal) return undefined;
      continue;
    }
    if (!value.endsWith(segment.suffix)) return undefined;
    const param = value.slice(0, value.length - segment.suffix.length);
    if (param === '') return undefined;
    captured[segment.param] = param;
  }
  for (const [key, value] of Object.entries(captured)) captured[key] = decodeSegment(value);
  return captured;
}

function decodeSegment(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch (cause) {
    throw new A2AError(A2AErrorCode.InvalidRequest, `Malformed percent-encoding in path segment "${clipInput(value)}"`, { cause });
  }
}

function compile<R extends RestRoute>(routes: readonly R[], tenant: boolean): CompiledPattern<R>[] {
  const byPattern = new Map<string, R[]>();
  for (const route of routes) byPattern.set(route.pattern, [...(byPattern.get(route.pattern) ?? []), route]);
  const plain = [...byPattern.entries()].map(([pattern, rs]) => ({ pattern, segments: parsePattern(pattern), routes: rs }));
  // Suffixed parameters (`{id}:cancel`) are more specific than bare ones at the same position.
  const specificity = (p: { segments: readonly Segment[] }) => p.segments.filter((s) => 'param' in s && s.suffix === '').length;
  plain.sort((a, b) => specificity(a) - specificity(b));
  return [...plain.map((p) => ({ ...p, tenant: false })), ...(tenant ? plain.map((p) => ({ ...p, tenant: true })) : [])];
}

function parsePattern(pattern: string): Segment[] {
  return pattern
    .slice(1)
    .split('/')
    .map((part): Segment => {
      const m = /^\{(\w+)\}(:\w+)?$/.exec(part);
      const param = m?.[1];
      return param === undefined ? { literal: part } : { param, suffix: m?.[2] ?? '' };
    });
}
