/**
 * The startup warnings: a listener beyond loopback with no authentication, and a card that
 * would hand loopback URLs to other machines; and the hint a taken default port gives. The
 * wiring test starts the executor with its listeners mocked out, so nothing binds beyond
 * loopback (tests use only loopback).
 */
import { recordingLogger } from '@a2a-polyglot/testing';
import { resolveConfig, type ExecutorConfigInput } from '../src/config.js';
import { GrpcListenError } from '../src/grpc-listener.js';
import { startExecutor } from '../src/start-executor.js';
import { startupFailure } from '../src/startup-failure.js';
import { startupWarnings } from '../src/startup-warnings.js';

jest.mock('../src/start-agents.js', () => ({
  // The listeners are not the subject here: a started executor without sockets.
  startAgents: async (config: unknown) => ({ config, close: async () => undefined }),
}));

const warningsOf = (input: ExecutorConfigInput) => startupWarnings(resolveConfig(input));
const NO_AUTH = /^Listening on .*, beyond loopback, with no authentication: anyone who reaches this port can run tasks\. Set auth\.apiKeys/;
const HOST_URLS = /publicBaseUrl unset: the card's URLs come from each request's Host header/;
const LOOPBACK_PUBLIC = /but publicBaseUrl is http:\/\/127\.0\.0\.1:8080\/?: the card sends clients on other machines to a loopback address/;
const KEYS = { auth: { apiKeys: { k1: 'alice' } } };

describe('startupWarnings', () => {
  it('says nothing while every listener is on loopback', () => {
    expect(warningsOf({})).toEqual([]);
    for (const host of ['127.0.0.1', 'localhost', '::1', '[::1]', '127.0.0.2']) expect(warningsOf({ host })).toEqual([]);
    expect(warningsOf({ host: '127.0.0.1', publicBaseUrl: 'http://127.0.0.1:8080' })).toEqual([]);
  });

  it('says nothing for a worker: it binds no port, whatever host it is given', () => {
    expect(warningsOf({ host: '0.0.0.0', queue: { enabled: true }, role: 'worker' })).toEqual([]);
    expect(warningsOf({ host: '0.0.0.0', queue: { enabled: true }, role: 'frontend' })).toEqual([
      expect.stringMatching(NO_AUTH),
      expect.stringMatching(HOST_URLS),
    ]);
  });

  it('warns about no authentication beyond loopback: 0.0.0.0, ::, a non-loopback address, a gRPC host of its own', () => {
    for (const host of ['0.0.0.0', '::', '10.1.2.3', 'agents.example.com']) {
      const warnings = warningsOf({ host, publicBaseUrl: 'https://agents.example.com' });
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(NO_AUTH);
      expect(warnings[0]).toContain(host);
    }
    const grpcOnly = warningsOf({ host: '127.0.0.1', grpcHost: '0.0.0.0', publicBaseUrl: 'https://agents.example.com' });
    expect(grpcOnly).toEqual([expect.stringMatching(/^Listening on 0\.0\.0\.0, beyond loopback, with no authentication/)]);
    // gRPC off: only the HTTP host counts.
    expect(warningsOf({ host: '127.0.0.1', grpcHost: '0.0.0.0', grpcPort: false })).toEqual([]);
  });

  it('is satisfied by API keys, JWTs or client-certificate identities', () => {
    const card = { publicBaseUrl: 'https://agents.example.com' };
    expect(warningsOf({ host: '0.0.0.0', ...card, ...KEYS })).toEqual([]);
    expect(
      warningsOf({ host: '0.0.0.0', ...card, auth: { jwksUrl: 'https://idp.example.com/jwks', jwtIssuer: 'https://idp.example.com', jwtAudience: 'a2a' } }),
    ).toEqual([]);
    // Client-certificate identities (their TLS files are checked at start, not here).
    const resolved = resolveConfig({ host: '0.0.0.0', ...card });
    expect(startupWarnings({ ...resolved, tls: { ...resolved.tls, clientCertIdentity: true } })).toEqual([]);
    expect(startupWarnings(resolved)).toEqual([expect.stringMatching(NO_AUTH)]);
  });

  it('warns when the card would send other machines to a loopback URL', () => {
    expect(warningsOf({ host: '0.0.0.0', ...KEYS })).toEqual([expect.stringMatching(HOST_URLS)]);
    expect(warningsOf({ host: '0.0.0.0', ...KEYS, publicBaseUrl: 'http://127.0.0.1:8080' })).toEqual([expect.stringMatching(LOOPBACK_PUBLIC)]);
    expect(warningsOf({ host: '::', ...KEYS, publicBaseUrl: 'http://localhost:8080' })).toEqual([
      expect.stringMatching(/publicBaseUrl is http:\/\/localhost:8080/),
    ]);
    // Behind a proxy that forwards its Host (trustProxy), the URLs come from X-Forwarded-Host.
    expect(warningsOf({ host: '0.0.0.0', ...KEYS, trustProxy: true })).toEqual([]);
    expect(warningsOf({ host: '0.0.0.0', ...KEYS, publicBaseUrl: 'https://agents.example.com', grpcPublicUrl: '127.0.0.1:50051' })).toEqual([
      expect.stringMatching(/^gRPC listens on 0\.0\.0\.0, beyond loopback, but grpcPublicUrl is 127\.0\.0\.1:50051/),
    ]);
    expect(warningsOf({ host: '0.0.0.0', ...KEYS, publicBaseUrl: 'https://agents.example.com', grpcPublicUrl: 'https://[::1]:50051' })).toHaveLength(1);
  });

  it('are logged with logger.warn when the executor starts', async () => {
    const logger = recordingLogger();
    const running = await startExecutor({ host: '0.0.0.0', port: 0, publicBaseUrl: 'http://127.0.0.1:8080' }, { logger });
    await running.close();
    expect(logger.messages('warn')).toEqual([expect.stringMatching(NO_AUTH), expect.stringMatching(LOOPBACK_PUBLIC)]);

    const quiet = recordingLogger();
    await (await startExecutor({ host: '127.0.0.1', port: 0 }, { logger: quiet })).close();
    expect(quiet.messages('warn')).toEqual([]);
  });
});

describe('the taken-port hint', () => {
  const inUse = Object.assign(new Error('listen EADDRINUSE: address already in use'), { code: 'EADDRINUSE' });

  it('says a taken default port is the default, and that each instance needs its own', () => {
    const http = startupFailure(inUse, { host: '127.0.0.1', port: 8080 });
    expect(http).toEqual({
      exitCode: 1,
      message:
        'Cannot listen on 127.0.0.1:8080: the address is already in use; 8080 is the default HTTP port, so each instance on one machine needs its own PORT (set port / PORT / --port; 0 picks a free port)',
    });
    const grpc = startupFailure(new GrpcListenError('127.0.0.1', 50051, inUse, true), { host: '127.0.0.1', port: 8081 });
    expect(grpc.message).toBe(
      'Cannot listen for gRPC on 127.0.0.1:50051: the address is already in use; 50051 is the default gRPC port, so each instance on one machine needs its own GRPC_PORT (set grpcPort / GRPC_PORT / --grpc-port, or "off" to disable gRPC)',
    );
    // A port the operator chose is only named.
    expect(startupFailure(inUse, { host: '127.0.0.1', port: 9000 }).message).toBe(
      'Cannot listen on 127.0.0.1:9000: the address is already in use (set port / PORT / --port; 0 picks a free port)',
    );
  });
});
