import { leaks } from '../src/index.js';
import { hasInternalJsonRpcError } from '../src/oracle.js';

describe('the fuzz oracle', () => {
  it('sees stack frames and file paths the request did not contain', () => {
    const stack =
      'TypeError: x is undefined\n    at decode (/srv/app/packages/core/src/request-handler.ts:120:11)\n    at node:internal/process/task_queues:95:5';
    expect(leaks(JSON.stringify({ error: { message: stack } }), '{}').length).toBeGreaterThan(0);
    expect(leaks('{"message":"ENOENT: no such file, open \'/home/me/a2a/config.json\'"}', '{}')).toContain('/home/me/a2a/config.json');
    expect(leaks('{"message":"failed in node_modules/@grpc/grpc-js/build/src/server.js"}', '{}').length).toBeGreaterThan(0);
  });

  it('does not count what the agent echoed back from the request', () => {
    const request = '{"text":"see /home/me/notes.txt and a.ts:12"}';
    expect(leaks('{"artifact":"Echo: see /home/me/notes.txt and a.ts:12"}', request)).toEqual([]);
    expect(leaks('{"error":{"code":-32001,"message":"Task abc not found"}}', '{}')).toEqual([]);
  });

  it('spots JSON-RPC internal errors in JSON and SSE answers', () => {
    expect(hasInternalJsonRpcError('data: {"jsonrpc":"2.0","id":1,"error":{"code": -32603,"message":"Internal error"}}')).toBe(true);
    expect(hasInternalJsonRpcError('{"error":{"code":-32602}}')).toBe(false);
  });
});
