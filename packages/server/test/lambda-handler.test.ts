/**
 * The AWS Lambda adapters (`createA2ALambdaHandler`, `createA2AStreamingLambdaHandler`),
 * called in process with events shaped as API Gateway and Function URLs send them: v2 and v1
 * REST events (stage in the card's URLs, multi-value headers, base64 bodies), a buffered SSE
 * stream, the 404 and 413 answers; and response streaming through a small honest
 * implementation of the runtime's `awslambda` contract (a Writable that collects chunks).
 */
import { Writable } from 'node:stream';
import { RequestHandler } from '@a2a-polyglot/core';
import { Gates, scriptedAgent, waitFor } from '@a2a-polyglot/testing';
import {
  type AwsLambdaStreaming,
  createA2ALambdaHandler,
  createA2AStreamingLambdaHandler,
  type LambdaHttpEventV2,
  type LambdaResponseStream,
  type LambdaRestEventV1,
  type LambdaStreamingHandler,
  type LambdaStreamPrelude,
} from '../src/index.js';
import { sendParams, testCard } from './helpers.js';

const DOMAIN = 'abc123.lambda-url.eu-west-1.on.aws';
let nextId = 1;

function v2Event(method: string, rawPath: string, init: Partial<LambdaHttpEventV2> & { headers?: Record<string, string> } = {}): LambdaHttpEventV2 {
  return {
    version: '2.0',
    rawPath,
    rawQueryString: '',
    isBase64Encoded: false,
    ...init,
    headers: { host: DOMAIN, 'x-forwarded-proto': 'https', 'a2a-version': '1.0', ...init.headers },
    requestContext: { domainName: DOMAIN, stage: '$default', http: { method, path: rawPath, sourceIp: '198.51.100.7' } },
  };
}

const rpcBody = (method: string, params: unknown) => JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params });
const frames = (sse: string) =>
  sse
    .split('\n')
    .filter((l) => l.startsWith('data:'))
    .map((l) => JSON.parse(l.slice(5)));

describe('createA2ALambdaHandler', () => {
  const gates = new Gates();
  const handler = new RequestHandler({ card: testCard(), executor: scriptedAgent(gates) });
  const shutdown = new AbortController();
  const lambda = createA2ALambdaHandler({ handler, maxBodyBytes: 2048, sseHeartbeatMs: 0, shutdownSignal: shutdown.signal });
  afterAll(async () => {
    gates.openAll();
    shutdown.abort();
    await handler.shutdown(100);
  });

  it('serves the card of a v2 event with URLs under the event domain', async () => {
    const res = await lambda(v2Event('GET', '/.well-known/agent-card.json'));
    expect(res.statusCode).toBe(200);
    expect(res.isBase64Encoded).toBe(false);
    expect(res.headers['content-type']).toBe('application/json');
    const urls = JSON.parse(res.body).supportedInterfaces.map((i: any) => `${i.protocolBinding} ${i.url}`);
    expect(urls).toContain(`JSONRPC https://${DOMAIN}/a2a/rpc`);
    expect(urls).toContain(`HTTP+JSON https://${DOMAIN}/a2a`);
  });

  it('serves a v2 event of a named HTTP API stage with the stage in the card URLs', async () => {
    const event = v2Event('GET', '/dev/.well-known/agent-card.json', { headers: { host: 'api.example.com' } });
    const res = await lambda({ ...event, requestContext: { ...event.requestContext, domainName: 'api.example.com', stage: 'dev' } });
    expect(res.statusCode).toBe(200);
    const urls = JSON.parse(res.body).supportedInterfaces.map((i: any) => i.url);
    expect(urls).toContain('https://api.example.com/dev/a2a/rpc');
  });

  it('answers a v2 JSON-RPC SendMessage, plain and base64-encoded', async () => {
    const plain = await lambda(
      v2Event('POST', '/a2a/rpc', { headers: { 'content-type': 'application/json' }, body: rpcBody('SendMessage', sendParams('hello lambda')) }),
    );
    expect(plain.statusCode).toBe(200);
    const task = JSON.parse(plain.body).result.task;
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(task.artifacts[0].parts[0].text).toBe('echo: hello lambda');

    const encoded = Buffer.from(rpcBody('SendMessage', sendParams('hello base64'))).toString('base64');
    const b64 = await lambda(v2Event('POST', '/a2a/rpc', { headers: { 'content-type': 'application/json' }, body: encoded, isBase64Encoded: true }));
    expect(b64.statusCode).toBe(200);
    expect(JSON.parse(b64.body).result.task.artifacts[0].parts[0].text).toBe('echo: hello base64');
  });

  it('serves a v1 REST event with a stage: the stage is in the card URLs; multi-value headers and REST message:send', async () => {
    const restEvent = (method: string, path: string, body: string | null, headers: Record<string, string[]>): LambdaRestEventV1 =>
      ({
        httpMethod: method,
        path,
        resource: '/{proxy+}',
        headers: { Host: 'api.example.com' },
        multiValueHeaders: { Host: ['api.example.com'], 'X-Forwarded-Proto': ['https'], 'A2A-Version': ['1.0'], ...headers },
        queryStringParameters: null,
        multiValueQueryStringParameters: null,
        body,
        isBase64Encoded: false,
        requestContext: { stage: 'prod', domainName: 'api.example.com', path: `/prod${path}`, identity: { sourceIp: '198.51.100.7' } },
      }) as LambdaRestEventV1;

    const card = await lambda(restEvent('GET', '/.well-known/agent-card.json', null, {}));
    expect(card.statusCode).toBe(200);
    expect(card.multiValueHeaders['content-type']).toEqual(['application/json']);
    const urls = JSON.parse(card.body).supportedInterfaces.map((i: any) => `${i.protocolBinding} ${i.url}`);
    expect(urls).toContain('JSONRPC https://api.example.com/prod/a2a/rpc');
    expect(urls).toContain('HTTP+JSON https://api.example.com/prod/a2a');

    const sent = await lambda(restEvent('POST', '/a2a/message:send', JSON.stringify(sendParams('hello rest')), { 'Content-Type': ['application/a2a+json'] }));
    expect(sent.statusCode).toBe(200);
    expect(sent.multiValueHeaders['content-type']).toEqual(['application/a2a+json']);
    const task = JSON.parse(sent.body).task;
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');

    const got = await lambda({
      ...restEvent('GET', `/a2a/tasks/${task.id}`, null, {}),
      multiValueQueryStringParameters: { historyLength: ['1'] },
    });
    expect(got.statusCode).toBe(200);
    expect(JSON.parse(got.body).id).toBe(task.id);
  });

  it('buffers a JSON-RPC SendStreamingMessage to its final event', async () => {
    const res = await lambda(
      v2Event('POST', '/a2a/rpc', {
        headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
        body: rpcBody('SendStreamingMessage', sendParams('steps 3')),
      }),
    );
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/event-stream');
    expect(res.isBase64Encoded).toBe(false);
    const events = frames(res.body);
    expect(events.length).toBeGreaterThanOrEqual(4);
    const last = events.at(-1).result;
    expect(last.statusUpdate?.status.state ?? last.task?.status.state).toBe('TASK_STATE_COMPLETED');
  });

  it('ends a buffered stream before the invocation deadline with the events so far; the task goes on', async () => {
    const short = createA2ALambdaHandler({ handler, timeoutMarginMs: 100 });
    const res = await short(
      v2Event('POST', '/a2a/message:stream', {
        headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
        body: JSON.stringify(sendParams('gate lambda-deadline')),
      }),
      { getRemainingTimeInMillis: () => 300 },
    );
    expect(res.statusCode).toBe(200);
    const events = frames(res.body);
    expect(events.length).toBeGreaterThanOrEqual(1);
    expect(res.body).not.toContain('TASK_STATE_COMPLETED');
    const taskId = events[0].task.id as string;
    gates.open('lambda-deadline');
    await waitFor(async () => JSON.parse((await lambda(v2Event('GET', `/a2a/tasks/${taskId}`))).body).status?.state === 'TASK_STATE_COMPLETED');
  });

  it('answers an unknown path with 404 and an oversized body with 413', async () => {
    const missing = await lambda(v2Event('GET', '/elsewhere'));
    expect(missing.statusCode).toBe(404);
    expect(JSON.parse(missing.body).error.message).toMatch(/Nothing is served at \/elsewhere/);

    const big = await lambda(
      v2Event('POST', '/a2a/rpc', { headers: { 'content-type': 'application/json' }, body: rpcBody('SendMessage', sendParams('x'.repeat(4096))) }),
    );
    expect(big.statusCode).toBe(413);
    expect(JSON.parse(big.body).error.data[0].reason).toBe('PAYLOAD_TOO_LARGE');
  });
});

/** A response stream as the runtime's: a Writable whose chunks the test reads. */
class CollectingStream extends Writable {
  readonly chunks: string[] = [];
  prelude?: LambdaStreamPrelude;
  ended = false;
  constructor() {
    super({ highWaterMark: 64 });
    this.once('finish', () => (this.ended = true));
  }
  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.chunks.push(chunk.toString('utf8'));
    callback();
  }
  text(): string {
    return this.chunks.join('');
  }
}

/** The `awslambda` contract: `streamifyResponse` marks the handler, `HttpResponseStream.from` takes the prelude first. */
const fakeAwsLambda: AwsLambdaStreaming = {
  streamifyResponse: (fn: LambdaStreamingHandler) => fn,
  HttpResponseStream: {
    from(stream: LambdaResponseStream, prelude: LambdaStreamPrelude) {
      const collecting = stream as unknown as CollectingStream;
      if (collecting.prelude || collecting.chunks.length > 0) throw new Error('the prelude must come first, once');
      collecting.prelude = prelude;
      return stream;
    },
  },
};

describe('createA2AStreamingLambdaHandler', () => {
  const gates = new Gates();
  const handler = new RequestHandler({ card: testCard(), executor: scriptedAgent(gates) });
  const shutdown = new AbortController();
  const streaming = createA2AStreamingLambdaHandler({
    handler,
    sseHeartbeatMs: 0,
    shutdownSignal: shutdown.signal,
    awslambda: fakeAwsLambda,
  }) as LambdaStreamingHandler;
  afterAll(async () => {
    gates.openAll();
    shutdown.abort();
    await handler.shutdown(100);
  });

  const streamEvent = (text: string) =>
    v2Event('POST', '/a2a/message:stream', {
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify(sendParams(text)),
    });

  it('fails clearly without the awslambda global', () => {
    expect(() => createA2AStreamingLambdaHandler({ handler })).toThrow(/awslambda/);
  });

  it('writes SSE events to the stream as they happen, and ends it when the task ends', async () => {
    const stream = new CollectingStream();
    let finished = false;
    const run = streaming(streamEvent('gate lambda-stream'), stream).then(() => (finished = true));
    await waitFor(() => stream.text().includes('data:'), { what: 'the first SSE event' });
    expect(stream.prelude).toMatchObject({ statusCode: 200, headers: { 'content-type': 'text/event-stream' } });
    expect(finished).toBe(false);
    expect(stream.ended).toBe(false);
    const first = frames(stream.text())[0];
    expect(first.task.id).toBeDefined();
    gates.open('lambda-stream');
    await run;
    expect(stream.ended).toBe(true);
    const last = frames(stream.text()).at(-1);
    expect(last.statusUpdate?.status.state ?? last.task?.status.state).toBe('TASK_STATE_COMPLETED');
  });

  it('streams a unary JSON-RPC answer whole', async () => {
    const stream = new CollectingStream();
    await streaming(
      v2Event('POST', '/a2a/rpc', { headers: { 'content-type': 'application/json' }, body: rpcBody('SendMessage', sendParams('hi stream')) }),
      stream,
    );
    expect(stream.prelude?.statusCode).toBe(200);
    expect(stream.ended).toBe(true);
    expect(JSON.parse(stream.text()).result.task.artifacts[0].parts[0].text).toBe('echo: hi stream');
  });

  it('stops when the stream closes early; the task goes on', async () => {
    const stream = new CollectingStream();
    const run = streaming(streamEvent('gate lambda-close'), stream);
    await waitFor(() => stream.text().includes('data:'), { what: 'the first SSE event' });
    const taskId = frames(stream.text())[0].task.id as string;
    stream.destroy();
    await run;
    expect(stream.ended).toBe(false);
    gates.open('lambda-close');
    const lambda = createA2ALambdaHandler({ handler });
    await waitFor(async () => {
      const got = await lambda(v2Event('GET', `/a2a/tasks/${taskId}`));
      return JSON.parse(got.body).status?.state === 'TASK_STATE_COMPLETED';
    });
  });
});
