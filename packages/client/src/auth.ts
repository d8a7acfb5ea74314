import type { Interceptor } from './interceptors.js';

/** A credential, or a function returning the current one (called before every call, so tokens can rotate). */
export type Credential = string | (() => string | Promise<string>);

async function current(credential: Credential): Promise<string> {
  return typeof credential === 'function' ? credential() : credential;
}

/** `Authorization: Bearer <token>` on every call (HTTP header / gRPC `authorization` metadata). */
export function bearerAuth(token: Credential): Interceptor {
  return {
    async before(call) {
      call.headers.Authorization = `Bearer ${await current(token)}`;
    },
  };
}

/** An API key in a header (`X-API-Key` unless the agent's card names another) on every call. */
export function apiKeyAuth(key: Credential, header = 'X-API-Key'): Interceptor {
  return {
    async before(call) {
      call.headers[header] = await current(key);
    },
  };
}
