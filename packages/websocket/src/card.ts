import type { AgentInterface } from '@a2a-polyglot/model';
import { type ProtocolVersion, SUPPORTED_VERSIONS } from '@a2a-polyglot/core';
import { WEBSOCKET_BINDING_URI } from './protocol.js';

/**
 * The WebSocket URL for an HTTP(S) public base URL: `http` → `ws`, `https` → `wss`, the
 * base's own path kept, then `path` (e.g. `https://agents.example.com/x` + `/a2a/ws` →
 * `wss://agents.example.com/x/a2a/ws`).
 */
export function websocketUrl(publicBaseUrl: string, path: string): string {
  const base = publicBaseUrl.replace(/\/+$/, '');
  const swapped = base.replace(/^http(s?):\/\//i, (_m, s: string) => `ws${s.toLowerCase()}://`);
  return `${swapped}${path.startsWith('/') ? path : `/${path}`}`;
}

/** The card entry of the WebSocket binding: {@link WEBSOCKET_BINDING_URI} at {@link websocketUrl}. */
export function websocketInterface(publicBaseUrl: string, path: string): AgentInterface {
  return { url: websocketUrl(publicBaseUrl, path), protocolBinding: WEBSOCKET_BINDING_URI, protocolVersion: newestVersion(), tenant: '' };
}

/**
 * For `extraInterfaces` of `@a2a-polyglot/server` (or any card builder that knows the public
 * base URL): `extraInterfaces: websocketExtraInterfaces('/a2a/ws')`.
 */
export function websocketExtraInterfaces(path: string): (publicBaseUrl: string) => AgentInterface[] {
  return (base) => [websocketInterface(base, path)];
}

/** The newest protocol version this server speaks: the first of core's SUPPORTED_VERSIONS. */
function newestVersion(): ProtocolVersion {
  const [newest] = SUPPORTED_VERSIONS;
  if (newest === undefined) throw new Error('SUPPORTED_VERSIONS is empty');
  return newest;
}
