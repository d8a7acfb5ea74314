/**
 * Calls the Lambda handlers of `handler.mjs` locally with sample events (the shapes AWS
 * documents for Function URL / HTTP API payload 2.0) and prints what they answer, one JSON
 * line per call:
 *
 *   node examples/aws-lambda/invoke.mjs
 *
 * For `streamingHandler` it installs a small stand-in for the runtime's `awslambda` global
 * (`streamifyResponse`, `HttpResponseStream.from`) that prints each chunk as it is written.
 */
import { Writable } from 'node:stream';

const DOMAIN = 'abcdefghij.lambda-url.us-east-1.on.aws';

globalThis.awslambda ??= {
  streamifyResponse: (fn) => fn,
  HttpResponseStream: {
    from(stream, prelude) {
      stream.prelude = prelude;
      return stream;
    },
  },
};
const { handler, streamingHandler } = await import('./handler.mjs');

let n = 0;
function v2Event(method, rawPath, { body, headers = {} } = {}) {
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath,
    rawQueryString: '',
    headers: { host: DOMAIN, 'x-forwarded-proto': 'https', 'a2a-version': '1.0', 'user-agent': 'invoke.mjs', ...headers },
    requestContext: {
      accountId: 'anonymous',
      apiId: 'abcdefghij',
      domainName: DOMAIN,
      domainPrefix: 'abcdefghij',
      http: { method, path: rawPath, protocol: 'HTTP/1.1', sourceIp: '203.0.113.10', userAgent: 'invoke.mjs' },
      requestId: `req-${++n}`,
      routeKey: '$default',
      stage: '$default',
      time: new Date().toUTCString(),
      timeEpoch: Date.now(),
    },
    body,
    isBase64Encoded: false,
  };
}
const message = (text) => ({ message: { role: 'ROLE_USER', messageId: `invoke-${process.pid}-${++n}`, parts: [{ text }] } });
const print = (call, value) => console.log(JSON.stringify({ call, ...value }));

const card = await handler(v2Event('GET', '/.well-known/agent-card.json'));
print('card', { statusCode: card.statusCode, interfaces: [...new Set(JSON.parse(card.body).supportedInterfaces.map((i) => `${i.protocolBinding} ${i.url}`))] });

const sent = await handler(
  v2Event('POST', '/a2a/rpc', {
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'SendMessage', params: message('hello lambda') }),
  }),
);
const task = JSON.parse(sent.body).result.task;
print('SendMessage', { statusCode: sent.statusCode, state: task.status.state, answer: task.artifacts[0].parts[0].text });

const chunks = [];
const stream = new Writable({
  write(chunk, _encoding, callback) {
    chunks.push(chunk.toString());
    print('stream chunk', { text: chunk.toString() });
    callback();
  },
});
await streamingHandler(
  v2Event('POST', '/a2a/message:stream', {
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify(message('hello stream')),
  }),
  stream,
);
const events = chunks
  .join('')
  .split('\n')
  .filter((l) => l.startsWith('data:')).length;
print('message:stream', { statusCode: stream.prelude.statusCode, contentType: stream.prelude.headers['content-type'], events });
