/**
 * SSE behaviour that the node:http listener's sink owns, not the bindings: heartbeats come from
 * the `sseHeartbeatMs` the listener hands its writer, and backpressure needs a real socket whose
 * client stops reading (a raw `node:net` connection, paused) to show the producer is not drained.
 * The bindings' own SSE frames are tested in-process in packages/jsonrpc/test and packages/rest/test.
 */
import { connect, type Socket } from 'node:net';
import { eventStreamFrom, interceptOperation, RequestHandler } from '@a2a-polyglot/core';
import { EndlessSource } from '@a2a-polyglot/testing';
import type { StreamResponse } from '@a2a-polyglot/model';
import { waitFor, waitForSteady, Gates, readSse, rpc, rpcStream, sendParams, startTestServer, testCard, scriptedAgent, V } from './helpers.js';

describe('SSE heartbeats', () => {
  it.each(['JSON-RPC', 'REST'])('%s streams get `: ping` comments while idle', async (binding) => {
    const s = await startTestServer({ sseHeartbeatMs: 20 });
    try {
      const sent = await rpc(s.rpcUrl, 'SendMessage', sendParams('gate g0', {}, { returnImmediately: true }));
      const id = sent.body.result.task.id;
      const res = binding === 'REST' ? await fetch(`${s.restUrl}/tasks/${id}:subscribe`, { headers: V }) : await rpcStream(s.rpcUrl, 'SubscribeToTask', { id });
      const read = await readSse(res, (r) => r.comments.includes('ping'));
      expect(read.comments).toContain('ping');
      expect(read.events.length).toBeGreaterThanOrEqual(1); // the snapshot came first
    } finally {
      await s.close();
    }
  });
});

describe('backpressure through the bindings', () => {
  const pad = 'x'.repeat(16 * 1024);
  const bigMessage: StreamResponse = {
    payload: {
      $case: 'message',
      value: {
        messageId: 'm',
        contextId: '',
        taskId: '',
        role: 2,
        parts: [{ content: { $case: 'text', value: pad }, metadata: undefined, filename: '', mediaType: '' }],
        metadata: undefined,
        extensions: [],
        referenceTaskIds: [],
      },
    },
  };

  /** A handler whose stream never ends (`source` counts how far it was pulled). */
  function endlessHandler(): { handler: RequestHandler; source: EndlessSource } {
    const source = new EndlessSource(bigMessage);
    const interceptors = [interceptOperation('SendStreamingMessage', async () => eventStreamFrom(source))];
    return { handler: new RequestHandler({ card: testCard(), executor: scriptedAgent(new Gates()), interceptors }), source };
  }

  function rawPost(port: number, path: string, body: string): Socket {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(
        `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nA2A-Version: 1.0\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      );
    });
    socket.on('error', () => undefined);
    return socket;
  }

  it.each([
    ['JSON-RPC', '/a2a/rpc', JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'SendStreamingMessage', params: sendParams('x') })],
    ['REST', '/a2a/message:stream', JSON.stringify(sendParams('x'))],
  ])('%s: a client that does not read does not make the server pull the whole stream', async (_binding, path, body) => {
    const { handler, source } = endlessHandler();
    const s = await startTestServer({ handler, sseHeartbeatMs: 0 });
    try {
      const socket = rawPost(Number(new URL(s.url).port), path, body);
      socket.pause();
      await waitForSteady(() => source.pulled, { what: 'the producer to stop' });
      expect(source.pulled).toBeLessThan(5000);
      socket.destroy();
      await waitFor(() => source.closed);
    } finally {
      await s.close();
    }
  });
});
