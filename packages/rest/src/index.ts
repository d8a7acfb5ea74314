/**
 * @a2a-polyglot/rest — the A2A HTTP+JSON (REST) binding: `createRestHandler` serves every
 * operation under a base URL (with optional `/{tenant}` prefix), unary as
 * `application/a2a+json`, streaming as SSE, errors as `{"error": google.rpc.Status}`.
 */
export * from './routes.js';
export * from './codec.js';
export * from './errors.js';
export * from './headers.js';
export * from './handler.js';
export type { RestDialect } from './rest-dialect.js';
export * from './v03-routes.js';
export * from './v03-errors.js';
export { V03_REST, V03_REST_CONTENT_TYPE } from './rest-v03.js';
