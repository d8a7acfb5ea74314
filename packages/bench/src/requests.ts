import { randomBytes } from 'node:crypto';
import { agentModeText, type AgentMode } from './agents/agent-mode.js';
import { ID_PLACEHOLDER, type CheckSpec, type RequestSpec } from './load/job.js';
import { RAW_GRPC_STREAM, RAW_GRPC_UNARY } from './servers/raw-grpc-server.js';
import { LOOPBACK } from './servers/started-server.js';
import type { Target } from './targets.js';

type ModelModule = typeof import('@a2a-polyglot/model');

/** What a cell asks of a target. Ceilings ignore message vs task (their unary is an echo). */
export type Workload = { readonly mode: 'message' | 'task' | 'idle' } | { readonly mode: 'stream'; readonly k: number; readonly pauseMs?: number };

/** Base path of the A2A routes on our server and on the SDK server. */
export const BASE_PATH = '/a2a';
const GRPC_SERVICE = '/lf.a2a.v1.A2AService';
const GRPC_SESSION = '/lf.a2a.v1.A2ASessionService/Session';
/** Subprotocol our WebSocket binding requires. */
const WS_SUBPROTOCOL = 'a2a.v1';

function agentMode(work: Workload): AgentMode {
  if (work.mode === 'stream') return { kind: 'stream', k: work.k, pauseMs: work.pauseMs ?? 0 };
  return { kind: work.mode };
}

/** Events a stream of this workload carries: task, working, K chunks, completed. */
export function expectedEvents(work: Workload): number | undefined {
  return work.mode === 'stream' ? work.k + 3 : undefined;
}

/**
 * The messageId template of one job: a random prefix per built request, then the slot's
 * operation id. Slots number their operations from 0 in every job, so without the prefix a
 * second job against the same server would repeat the first one's messageIds, and idempotent
 * sends would answer them as replays (or refuse them, for another workload's text).
 */
function messageIdTemplate(): string {
  return `bench-${randomBytes(4).toString('hex')}-${ID_PLACEHOLDER}`;
}

function messageJson(text: string) {
  return { messageId: messageIdTemplate(), role: 'ROLE_USER', parts: [{ text }] };
}

function httpRequest(path: string, port: number, body: string, stream: boolean): string {
  const length = Buffer.byteLength(body, 'utf8');
  return (
    `POST ${path} HTTP/1.1\r\n` +
    `Host: ${LOOPBACK}:${port}\r\n` +
    `Content-Type: application/json\r\n` +
    `Accept: ${stream ? 'text/event-stream' : 'application/json'}\r\n` +
    `A2A-Version: 1.0\r\n` +
    `Content-Length: ${length}\r\n\r\n${body}`
  );
}

function grpcMessage(text: string): string {
  const { SendMessageRequest } = require('@a2a-polyglot/model') as ModelModule;
  return Buffer.from(SendMessageRequest.encode(sendMessageRequest(text)).finish()).toString('base64');
}

function sendMessageRequest(text: string) {
  const { SendMessageRequest, Role } = require('@a2a-polyglot/model') as ModelModule;
  return SendMessageRequest.fromPartial({
    message: { messageId: messageIdTemplate(), role: Role.ROLE_USER, parts: [{ content: { $case: 'text', value: text } }] },
  });
}

/** One session `send` operation; the correlation id is the placeholder too (see session-client.ts). */
function sessionMessage(text: string, streaming: boolean): string {
  const { SessionRequest } = require('@a2a-polyglot/model/session') as typeof import('@a2a-polyglot/model/session');
  const request = SessionRequest.fromPartial({
    correlationId: ID_PLACEHOLDER,
    operation: { $case: 'send', value: { request: sendMessageRequest(text), streaming } },
  });
  return Buffer.from(SessionRequest.encode(request).finish()).toString('base64');
}

/**
 * Builds the request a target gets for a workload: every A2A target receives the same
 * message (text selects the agent mode, see agents/agent-mode.ts), in its own binding.
 */
export function buildRequest(target: Target, work: Workload, port: number): RequestSpec {
  const text = agentModeText(agentMode(work));
  const stream = work.mode === 'stream' || work.mode === 'idle';
  const shape = stream ? 'stream' : 'unary';
  const events = expectedEvents(work);
  const expect: CheckSpec['expect'] = work.mode === 'stream' || work.mode === 'idle' ? 'stream' : work.mode;
  const base = { host: LOOPBACK, port, shape } as const;

  switch (target.binding) {
    case 'jsonrpc': {
      const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: stream ? 'SendStreamingMessage' : 'SendMessage', params: { message: messageJson(text) } });
      return { ...base, protocol: 'http', http: httpRequest(`${BASE_PATH}/rpc`, port, body, stream), check: { kind: 'jsonrpc', expect, events } };
    }
    case 'rest': {
      const body = JSON.stringify({ message: messageJson(text) });
      return {
        ...base,
        protocol: 'http',
        http: httpRequest(`${BASE_PATH}/message:${stream ? 'stream' : 'send'}`, port, body, stream),
        check: { kind: 'rest', expect, events },
      };
    }
    case 'http': {
      const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: stream ? 'SendStreamingMessage' : 'SendMessage', params: { message: messageJson(text) } });
      let path = '/unary';
      if (work.mode === 'stream') path = `/sse?k=${work.k}${work.pauseMs ? `&pause=${work.pauseMs}` : ''}`;
      else if (work.mode === 'idle') path = '/sse?k=1&idle=1';
      return { ...base, protocol: 'http', http: httpRequest(path, port, body, stream), check: { kind: 'raw', expect, events } };
    }
    case 'grpc': {
      if (target.family === 'ceiling') {
        const metadata: Record<string, string> = {};
        if (work.mode === 'stream') {
          metadata['x-k'] = String(work.k);
          if (work.pauseMs) metadata['x-pause-ms'] = String(work.pauseMs);
        } else if (work.mode === 'idle') metadata['x-idle'] = '1';
        return {
          ...base,
          protocol: 'grpc',
          grpc: { path: stream ? RAW_GRPC_STREAM : RAW_GRPC_UNARY, metadata, messageB64: grpcMessage(text) },
          check: { kind: 'raw', expect, events },
        };
      }
      if (target.session) {
        return {
          ...base,
          protocol: 'grpc-session',
          grpc: { path: GRPC_SESSION, metadata: { 'a2a-version': '1.0' }, messageB64: sessionMessage(text, stream) },
          check: { kind: 'grpc-session', expect, events },
        };
      }
      return {
        ...base,
        protocol: 'grpc',
        grpc: { path: `${GRPC_SERVICE}/${stream ? 'SendStreamingMessage' : 'SendMessage'}`, metadata: { 'a2a-version': '1.0' }, messageB64: grpcMessage(text) },
        check: { kind: 'grpc-a2a', expect, events },
      };
    }
    case 'ws': {
      if (target.family !== 'ceiling') {
        // Our WebSocket binding: JSON-RPC frames, the JSON-RPC binding's methods and params.
        const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: stream ? 'SendStreamingMessage' : 'SendMessage', params: { message: messageJson(text) } });
        return {
          ...base,
          protocol: 'ws',
          ws: { text: body, expectMessages: events ?? 1, framing: 'a2a', path: `${BASE_PATH}/ws?A2A-Version=1.0`, subprotocols: [WS_SUBPROTOCOL] },
          check: { kind: 'jsonrpc', expect, events },
        };
      }
      const body = stream ? text : JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'SendMessage', params: { message: messageJson(text) } });
      return { ...base, protocol: 'ws', ws: { text: body, expectMessages: events ?? 1, framing: 'count' }, check: { kind: 'raw', expect, events } };
    }
  }
}
