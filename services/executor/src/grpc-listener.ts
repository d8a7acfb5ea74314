import { SUPPORTED_VERSIONS, type Logger, type ProtocolVersion, type ReadinessReport, type RequestHandler } from '@a2a-polyglot/core';
import { startGrpcServer, type CallRouter, type RunningGrpcServer } from '@a2a-polyglot/grpc';
import type { AgentInterface } from '@a2a-polyglot/model';
import type { ServerCredentials } from '@grpc/grpc-js';
import { DEFAULT_GRPC_PORT, grpcListenAddress, type ExecutorConfig } from './config.js';

/**
 * The gRPC listener could not be opened (port in use, permission, bad address). Its message
 * is one line naming the address and how to change or disable it, for `main` to print. When
 * the port in use is the default one (`defaulted`), it says so: the usual cause is a second
 * instance on the same machine that set only its HTTP port.
 */
export class GrpcListenError extends Error {
  constructor(host: string, port: number, cause: unknown, defaulted = false) {
    const text = (cause as Error)?.message ?? String(cause);
    const inUse = /EADDRINUSE/.test(text);
    const why = inUse ? 'the address is already in use' : /EACCES/.test(text) ? 'permission denied' : text;
    const usual = inUse && defaulted ? `; ${port} is the default gRPC port, so each instance on one machine needs its own GRPC_PORT` : '';
    super(`Cannot listen for gRPC on ${host}:${port}: ${why}${usual} (set grpcPort / GRPC_PORT / --grpc-port, or "off" to disable gRPC)`, { cause });
    this.name = 'GrpcListenError';
  }
}

/** How long gRPC calls still open after the handler's shutdown may drain before they are cut. */
export const GRPC_CLOSE_GRACE_MS = 3000;

/** Starts the gRPC listener on the same RequestHandler (or, with `router`, on every agent), unless gRPC is off. */
export async function startGrpc(
  handler: RequestHandler,
  config: ExecutorConfig,
  logger: Logger,
  readiness: () => Promise<ReadinessReport>,
  credentials: ServerCredentials | undefined,
  router?: CallRouter,
): Promise<RunningGrpcServer | undefined> {
  const address = grpcListenAddress(config);
  if (!address) return undefined;
  try {
    return await startGrpcServer({
      handler,
      host: address.host,
      port: address.port,
      logger,
      readiness,
      streamStallTimeoutMs: config.streamStallTimeoutMs,
      maxReceiveMessageBytes: config.maxBodyBytes,
      credentials,
      router,
    });
  } catch (error) {
    throw new GrpcListenError(address.host, address.port, error, config.grpcPort === undefined && address.port === DEFAULT_GRPC_PORT);
  }
}

/**
 * The card's GRPC interface: `grpcPublicUrl` verbatim when configured, otherwise the public
 * host (the hostname of `publicBaseUrl`, or of the request's Host when that is unset) with
 * the bound gRPC port, in the `host:port` form the spec gives for GRPC; `https://host:port`
 * when the listener serves TLS (`tls`), so clients know to open a TLS channel.
 */
export function grpcInterface(
  config: Pick<ExecutorConfig, 'grpcPublicUrl'> & { readonly tls?: Pick<ExecutorConfig['tls'], 'certFile'> },
  publicBase: string,
  port: number,
  protocolVersion: ProtocolVersion = '1.0',
  tenant = '',
): AgentInterface {
  const url = config.grpcPublicUrl ?? `${config.tls?.certFile ? 'https://' : ''}${new URL(publicBase).hostname}:${port}`;
  return { protocolBinding: 'GRPC', url, protocolVersion, tenant };
}

/**
 * The card's GRPC interfaces: the one port serves both `lf.a2a.v1.A2AService` (1.0) and the
 * v0.3 service `a2a.v1.A2AService`, so it is listed once per version, 1.0 first (v0.3 clients
 * pick the entry naming 0.3). A mounted agent's entries carry its id as `tenant`: v1.0 clients
 * copy it into every request, which is how the shared port tells the agents apart. Such an
 * agent gets no 0.3 entry: v0.3 requests have no tenant, so a v0.3 client that followed the
 * entry would reach the default agent instead. v0.3 gRPC clients reach it with the
 * `a2a-agent` metadata (documented, not advertised), or use its v0.3 JSON-RPC and REST entries.
 */
export function grpcCardInterfaces(config: Parameters<typeof grpcInterface>[0], publicBase: string, port: number, tenant = ''): AgentInterface[] {
  const versions = tenant === '' ? SUPPORTED_VERSIONS : SUPPORTED_VERSIONS.filter((version) => version !== '0.3');
  return versions.map((version) => grpcInterface(config, publicBase, port, version, tenant));
}
