/**
 * What the operator should hear at startup about a configuration that works but is likely
 * not what they meant: a listener other machines can reach with nobody asked who they are,
 * and a card that would send those machines to a loopback address (their own).
 */
import { authenticationConfigured } from './authentication.js';
import { grpcListenAddress, isLoopbackHost, type ExecutorConfig } from './config.js';
import { opensListeners } from './worker-role.js';

/** The warnings of `config`, one line each, empty when there is nothing to say (always for a worker: it listens nowhere). */
export function startupWarnings(config: ExecutorConfig): string[] {
  if (!opensListeners(config)) return [];
  const grpc = grpcListenAddress(config);
  const exposed = [config.host, ...(grpc ? [grpc.host] : [])].filter((host) => !isLoopbackHost(host));
  if (exposed.length === 0) return [];
  const where = [...new Set(exposed)].join(' and ');
  const warnings: string[] = [];
  // With agents, each one is guarded by its own auth, else by the service-level one.
  const guarded = (auth: ExecutorConfig['auth']) => authenticationConfigured(auth, config.tls.clientCertIdentity);
  const open = config.agents.length === 0 ? (guarded(config.auth) ? [] : ['']) : config.agents.filter((a) => !guarded(a.auth ?? config.auth)).map((a) => a.id);
  if (open.length > 0) {
    const which = open[0] === '' ? '' : ` for agent${open.length > 1 ? 's' : ''} ${open.join(', ')}`;
    warnings.push(
      `Listening on ${where}, beyond loopback, with no authentication${which}: anyone who reaches this port can run tasks. Set auth.apiKeys (A2A_API_KEYS) or auth.jwksUrl (A2A_JWKS_URL), or listen on 127.0.0.1 (HOST)`,
    );
  }
  const loopbackPublic = config.publicBaseUrl !== undefined && isLoopbackHost(new URL(config.publicBaseUrl).hostname);
  if (loopbackPublic) {
    warnings.push(
      `Listening on ${where}, beyond loopback, but publicBaseUrl is ${config.publicBaseUrl}: the card sends clients on other machines to a loopback address, their own. Set publicBaseUrl (A2A_PUBLIC_BASE_URL) to the URL they reach this service at`,
    );
  } else if (config.publicBaseUrl === undefined && !config.trustProxy) {
    warnings.push(
      `Listening on ${where}, beyond loopback, with publicBaseUrl unset: the card's URLs come from each request's Host header, so a client that reached this service as localhost, or through a proxy that rewrites Host to a loopback address, is handed loopback URLs. Set publicBaseUrl (A2A_PUBLIC_BASE_URL) to the URL clients reach this service at`,
    );
  }
  if (grpc && !isLoopbackHost(grpc.host) && config.grpcPublicUrl !== undefined && isLoopbackHost(grpcUrlHost(config.grpcPublicUrl))) {
    warnings.push(
      `gRPC listens on ${grpc.host}, beyond loopback, but grpcPublicUrl is ${config.grpcPublicUrl}: the card sends gRPC clients on other machines to a loopback address. Set grpcPublicUrl (A2A_GRPC_PUBLIC_URL) to where they reach it`,
    );
  }
  return warnings;
}

/** The host of a `grpcPublicUrl` (`host:port` or `https://host[:port]`). */
function grpcUrlHost(url: string): string {
  return new URL(url.includes('://') ? url : `grpc://${url}`).hostname;
}
