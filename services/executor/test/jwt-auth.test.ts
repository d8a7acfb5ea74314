/**
 * Real identities end to end: the executor configured with a JWKS URL accepts bearer JWTs
 * signed by the provider on every binding (and API keys beside them), refuses others with the
 * binding's own Unauthenticated answer, and declares the scheme in its card.
 */
import { WebSocket } from 'ws';
import { A2AErrorCode } from '@a2a-polyglot/core';
import {
  Client,
  GRPC_BINDING,
  textMessage,
  WEBSOCKET_BINDING,
  webSocketTransportFactory,
  type ClientOptions,
  type WebSocketConstructor,
} from '@a2a-polyglot/client';
import { grpcTransportFactory } from '@a2a-polyglot/client/grpc';
import { TestIdentityProvider } from '@a2a-polyglot/testing';
import { startExecutor, type RunningExecutor } from '../src/index.js';

const transports: ClientOptions['transports'] = {
  [GRPC_BINDING]: grpcTransportFactory,
  [WEBSOCKET_BINDING]: webSocketTransportFactory({ WebSocket: WebSocket as unknown as WebSocketConstructor }),
};

describe('the executor with bearer JWTs', () => {
  let idp: TestIdentityProvider;
  let executor: RunningExecutor;
  let sign: () => Promise<string>;

  beforeAll(async () => {
    idp = await new TestIdentityProvider('https://idp.test', 'a2a-executor').start();
    const key = await idp.newKey('k1', 'ES256');
    idp.published = [key.jwk];
    sign = () => idp.sign(key);
    executor = await startExecutor({
      host: '127.0.0.1',
      port: 0,
      grpcPort: 0,
      logLevel: 'error',
      demo: { chunkDelayMs: 0 },
      auth: { jwksUrl: idp.jwksUrl, jwtIssuer: idp.issuer, jwtAudience: idp.audience, apiKeys: { 'svc-key': 'service' } },
    });
  });
  afterAll(async () => {
    await executor?.close();
    await idp.close();
  });

  it('declares the JWT scheme in the card, beside the API key schemes', async () => {
    const card = (await (await fetch(`${executor.url}/.well-known/agent-card.json`, { headers: { 'A2A-Version': '1.0' } })).json()) as any;
    expect(card.securitySchemes.oauth2Bearer).toEqual({
      httpAuthSecurityScheme: { description: 'OAuth2 bearer token (JWT)', scheme: 'Bearer', bearerFormat: 'JWT' },
    });
    expect(Object.keys(card.securitySchemes).sort()).toEqual(['apiKey', 'bearer', 'oauth2Bearer']);
  });

  it.each(['jsonrpc', 'rest', 'grpc', 'websocket'] as const)('accepts a valid JWT and refuses a forged one over %s', async (binding) => {
    const good = await Client.connect(executor.url, { bindings: [binding], transports, bearerToken: await sign() });
    try {
      const answer = await good.sendMessage({ message: textMessage(`hello over ${binding}`) });
      expect(answer.payload?.$case).toBe('task');
    } finally {
      await good.close();
    }
    const forged = await idp.sign(await idp.newKey('k1', 'ES256'), { sub: 'mallory' });
    const bad = await Client.connect(executor.url, { bindings: [binding], transports, bearerToken: forged });
    try {
      await expect(bad.getTask({ id: 'x' })).rejects.toMatchObject({ code: A2AErrorCode.Unauthenticated });
    } finally {
      await bad.close();
    }
  });

  it('still accepts the configured API key, and scopes tasks to the JWT subject', async () => {
    const alice = await Client.connect(executor.url, { bindings: ['jsonrpc'], bearerToken: await sign() });
    const service = await Client.connect(executor.url, { bindings: ['jsonrpc'], apiKey: 'svc-key' });
    try {
      const answer = await alice.sendMessage({ message: textMessage('mine') });
      const taskId = answer.payload?.$case === 'task' ? answer.payload.value.id : '';
      expect((await alice.getTask({ id: taskId })).id).toBe(taskId);
      await expect(service.getTask({ id: taskId })).rejects.toMatchObject({ code: A2AErrorCode.TaskNotFound });
    } finally {
      await alice.close();
      await service.close();
    }
  });
});
