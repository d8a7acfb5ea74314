import type { IncomingMessage, ServerResponse } from 'node:http';
import { createA2ARequestListener } from './listener.js';
import type { A2AHttpOptions } from './options.js';

/**
 * The part of a Fastify (v5) instance {@link a2aFastifyPlugin} uses. Why structural: this
 * package must not depend on Fastify; a Fastify instance fits it as is.
 */
export interface FastifyInstanceLike {
  /** The prefix the plugin was registered with (`''` at the root). */
  readonly prefix: string;
  removeAllContentTypeParsers(): unknown;
  addContentTypeParser(contentType: string, parser: (request: unknown, payload: unknown, done: (error: Error | null, body?: unknown) => void) => void): unknown;
  route(options: {
    method: string[];
    url: string;
    exposeHeadRoute?: boolean;
    handler: (request: { raw: IncomingMessage }, reply: { raw: ServerResponse; hijack(): unknown }) => void;
  }): unknown;
}

/** The plugin's options: the listener's, without `mountPath` (the register `prefix` is it). */
export type A2AFastifyPluginOptions = Omit<A2AHttpOptions, 'mountPath'>;

const METHODS = ['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT'];

/**
 * A Fastify plugin serving one agent under its register prefix:
 * `app.register(a2aFastifyPlugin, { prefix: '/agent', handler })` serves the card at
 * `/agent/.well-known/agent-card.json`, JSON-RPC at `/agent/a2a/rpc`, REST under `/agent/a2a`,
 * with card URLs that include `/agent`.
 *
 * Why hand the raw request and response to the listener (`reply.hijack()`): the bindings
 * stream SSE, apply the body limit and negotiate media types themselves, so Fastify must
 * neither parse the body (a catch-all content-type parser leaves the stream unread, in this
 * plugin's scope only) nor send a reply. The app's own routes, even under the prefix, still
 * answer: Fastify prefers them to this plugin's wildcard route.
 */
export async function a2aFastifyPlugin(fastify: FastifyInstanceLike, options: A2AFastifyPluginOptions): Promise<void> {
  const { prefix: _prefix, ...listenerOptions } = options as A2AFastifyPluginOptions & { prefix?: unknown };
  const listener = createA2ARequestListener({ ...listenerOptions, mountPath: fastify.prefix });
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('*', (_request, _payload, done) => done(null));
  fastify.route({
    method: METHODS,
    url: '/*',
    exposeHeadRoute: false,
    handler: (request, reply) => {
      reply.hijack();
      listener(request.raw, reply.raw);
    },
  });
}
