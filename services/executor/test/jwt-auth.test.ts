/**
 * Real identities end to end: the executor configured with a JWKS URL accepts bearer JWTs
 * signed by the provider on every binding (and API keys beside them), refuses others with the
 * binding's own Unauthenticated answer, and declares the scheme in its card.
 */
import { createServer, type Server } from 'node:http';
import { WebSocket } from 'ws';
import { A2AErrorCode } from '@a2a-polyglot/core';
import { Client, GRPC_BINDING, textMessage, WEBSOCKET_BINDING, webSocketTransportFactory, type ClientOptions, type WebSocketConstructor } from '@a2a-polyglot/client';
import { grpcTransportFactory } from '@a2a-polyglot/client/grpc';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { startExecutor, type RunningExecutor } from '../src/index.js';

const ISSUER = 'https://idp.test';
const AUDIENCE = 'a2a-executor';
const transports: ClientOptions['transports'] = {
  [GRPC_BINDING]: grpcTransportFactory,
  [WEBSOCKET_BINDING]: webSocketTransportFactory({ WebSocket: WebSocket as unknown as WebSocketConstructor }),
};

describe('the executor with bearer JWTs', () => {
  let jwks: Server;
  let executor: RunningExecutor;
  let sign: (claims?: Record<string, unknown>) => Promise<string>;

  beforeAll(async () => {
    const { publicKey, privateKey } = await generateKeyPair('ES256');
    const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'ES256' };
    jwks = createServer((_, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ keys: [jwk] }));
    });
    await new Promise<void>((resolve) => jwks.listen(0, '127.0.0.1', resolve));
    const jwksUrl = `http://127.0.0.1:${(jwks.address() as { port: number }).port}/jwks`;
    sign = (claims = {}) => new SignJWT({ sub: 'alice', ...claims }).setProtectedHeader({ alg: 'ES256', kid: 'k1' }).setIssuer(ISSUER).setAudience(AUDIENCE).setExpirationTime('5m').sign(privateKey);
    executor = await startExecutor({
      host: '127.0.0.1',
      port: 0,
      grpcPort: 0,
      logLevel: 'error',
      demo: { chunkDelayMs: 0 },
      auth: { jwksUrl, jwtIssuer: ISSUER, jwtAudience: AUDIENCE, apiKeys: { 'svc-key': 'service' } },
    });
  });
  afterAll(async () => {
    await executor?.close();
    await new Promise((resolve) => jwks.close(resolve));
  });

  it('declares the JWT scheme in the card, beside the API key schemes', async () => {
    const card = (await (await fetch(`${executor.url}/.well-known/agent-card.json`, { headers: { 'A2A-Version': '1.0' } })).json()) as any;
    expect(card.securitySchemes.oauth2Bearer).toEqual({ httpAuthSecurityScheme: { description: 'OAuth2 bearer token (JWT)', scheme: 'Bearer', bearerFormat: 'JWT' } });
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
    const { privateKey: otherKey } = await generateKeyPair('ES256');
    const forged = await new SignJWT({ sub: 'mallory' }).setProtectedHeader({ alg: 'ES256', kid: 'k1' }).setIssuer(ISSUER).setAudience(AUDIENCE).setExpirationTime('5m').sign(otherKey);
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
