/**
 * Whether each interface URL of a card answers from this page: an HTTP interface must answer
 * a plain GET (any status: opaque `no-cors` responses count), a WebSocket one must open. Only
 * reachability: what the endpoint then says is the client's business.
 */
import { bindingKeyOf, WEBSOCKET_SUBPROTOCOL } from '@a2a-polyglot/client';
import type { AgentInterface } from '@a2a-polyglot/model';

/** How long one probe may take. */
const PROBE_MS = 4000;

/** `reachable`, `unreachable`, or `skipped` (gRPC, unknown bindings, bad URLs). */
export type ProbeResult = 'reachable' | 'unreachable' | 'skipped';

/** Probes one interface. Never throws. */
export async function probeInterface(agentInterface: AgentInterface): Promise<ProbeResult> {
  const binding = bindingKeyOf(agentInterface.protocolBinding);
  try {
    if (binding === 'websocket') return await probeWebSocket(agentInterface.url);
    if (binding === 'jsonrpc' || binding === 'rest') {
      await fetch(agentInterface.url, { method: 'GET', mode: 'no-cors', cache: 'no-store', signal: AbortSignal.timeout(PROBE_MS) });
      return 'reachable';
    }
    return 'skipped';
  } catch {
    return 'unreachable';
  }
}

function probeWebSocket(url: string): Promise<ProbeResult> {
  return new Promise((resolve) => {
    const target = new URL(url);
    target.searchParams.set('A2A-Version', '1.0');
    const socket = new WebSocket(target.href, [WEBSOCKET_SUBPROTOCOL]);
    const done = (result: ProbeResult) => {
      clearTimeout(timer);
      socket.onopen = socket.onerror = null;
      socket.close();
      resolve(result);
    };
    const timer = setTimeout(() => done('unreachable'), PROBE_MS);
    socket.onopen = () => done('reachable');
    socket.onerror = () => done('unreachable');
  });
}
