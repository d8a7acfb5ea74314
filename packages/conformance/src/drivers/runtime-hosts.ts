import { PassThrough, Readable } from 'node:stream';
import type { RequestHandler } from '@a2a-polyglot/core';
import {
  type AwsLambdaStreaming,
  createA2AFetchHandler,
  createA2AStreamingLambdaHandler,
  type LambdaHttpEventV2,
  type LambdaStreamingHandler,
  type LambdaStreamPrelude,
} from '@a2a-polyglot/server';
import { startServerUnderTest } from './http-common.js';

/**
 * Where the HTTP drivers' requests are served: a real `@a2a-polyglot/server` node:http listener
 * on a socket (`node`), the fetch-standard handler called in process (`fetch`: what Hono, Bun,
 * Deno and Workers run), or the AWS Lambda response-streaming handler called in process through
 * the runtime's contract (`lambda`). The same drivers speak to all three through `transport`, so
 * one scenario set shows the same outcomes on every runtime.
 * @internal
 */
export type HttpHost = 'node' | 'fetch' | 'lambda';

/** A started host: the A2A base URL (`…/a2a`), the card URL, how to send, how to stop. */
export interface StartedHost {
  readonly baseUrl: string;
  readonly cardUrl: string;
  readonly transport: typeof fetch;
  close(): Promise<void>;
}

const BASE_PATH = '/a2a';

/** Starts `handler` on `host`. */
export async function startHttpHost(handler: RequestHandler, host: HttpHost): Promise<StartedHost> {
  if (host === 'node') {
    const server = await startServerUnderTest(handler);
    return {
      baseUrl: `${server.url}${server.basePath}`,
      cardUrl: `${server.url}/.well-known/agent-card.json`,
      transport: (input, init) => fetch(input, init),
      close: () => server.close(),
    };
  }
  const origin = host === 'fetch' ? 'http://fetch.test' : 'https://lambda.test';
  const serve = host === 'fetch' ? createA2AFetchHandler({ handler, basePath: BASE_PATH }) : lambdaAsFetch(handler);
  return {
    baseUrl: `${origin}${BASE_PATH}`,
    cardUrl: `${origin}/.well-known/agent-card.json`,
    transport: inProcessTransport(serve),
    close: async () => undefined,
  };
}

/**
 * A `fetch` that hands the request to a handler in this process. Aborting the request's signal
 * aborts the handler's `Request.signal` and errors the response body the caller reads, as a
 * dropped connection does with a real fetch.
 */
function inProcessTransport(serve: (request: Request) => Promise<Response>): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const response = await serve(request);
    const signal = init?.signal;
    if (!signal || !response.body) return response;
    const body = response.body.pipeThrough(new TransformStream(), { signal });
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

/**
 * The streaming Lambda handler behind a `Request → Response` function, through a stand-in of
 * the Lambda Node.js runtime's response-streaming contract: the handler gets a payload format
 * 2.0 event and a `Writable`; `HttpResponseStream.from` hands over the status and headers, and
 * every chunk written is read by the caller as it is written. Closing the body (the caller went
 * away) destroys the stream, which is how the runtime reports a client that left.
 */
function lambdaAsFetch(handler: RequestHandler): (request: Request) => Promise<Response> {
  const preludes = new WeakMap<PassThrough, (prelude: LambdaStreamPrelude) => void>();
  const runtime: AwsLambdaStreaming = {
    streamifyResponse: (h: LambdaStreamingHandler) => h,
    HttpResponseStream: {
      from(stream, prelude) {
        preludes.get(stream as unknown as PassThrough)?.(prelude);
        return stream;
      },
    },
  };
  const invoke = createA2AStreamingLambdaHandler({ handler, basePath: BASE_PATH, awslambda: runtime }) as LambdaStreamingHandler;
  return async (request) => {
    const event = await lambdaEvent(request);
    const stream = new PassThrough();
    const prelude = new Promise<LambdaStreamPrelude>((resolve) => preludes.set(stream, resolve));
    const done = invoke(event, stream).catch((error: unknown) => stream.destroy(error as Error));
    const head = await Promise.race([prelude, done.then(() => undefined)]);
    if (!head) throw new TypeError('the Lambda handler ended without a response');
    request.signal.addEventListener('abort', () => stream.destroy(), { once: true });
    const body =
      request.method === 'HEAD' || head.statusCode === 204 || head.statusCode === 304 ? null : (Readable.toWeb(stream) as ReadableStream<Uint8Array>);
    return new Response(body, { status: head.statusCode, headers: head.headers });
  };
}

/** What API Gateway / a Function URL would hand the function for `request` (payload format 2.0). */
async function lambdaEvent(request: Request): Promise<LambdaHttpEventV2> {
  const url = new URL(request.url);
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    headers[name] = value;
  });
  const text = request.method === 'GET' || request.method === 'HEAD' ? '' : await request.text();
  return {
    version: '2.0',
    rawPath: url.pathname,
    rawQueryString: url.search.replace(/^\?/, ''),
    headers,
    body: text === '' ? null : text,
    isBase64Encoded: false,
    requestContext: { domainName: url.host, stage: '$default', http: { method: request.method, path: url.pathname, sourceIp: '127.0.0.1' } },
  };
}
