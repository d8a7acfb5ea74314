import { clientCertificateOf, type ClientCertificate } from '@a2a-polyglot/core';
import type { ServerUnaryCall } from '@grpc/grpc-js';

/**
 * What the core may know of a gRPC call's peer, in transport-neutral terms: its address (per
 * address rate limits) and the client certificate the TLS listener verified (mutual TLS).
 */
export interface GrpcPeer {
  readonly remoteAddress?: string;
  readonly clientCertificate?: ClientCertificate;
}

/**
 * Reads the peer of a call. grpc-js reports it as `<address>:<port>` (an IPv6 address is not
 * bracketed, so the port is whatever follows the last colon: a TCP peer always has one) and
 * gives the certificate only when the TLS handshake verified it.
 */
export function grpcPeer(call: Pick<ServerUnaryCall<unknown, unknown>, 'getPeer' | 'getAuthContext'>): GrpcPeer {
  const peer = call.getPeer();
  const port = /:\d+$/.exec(peer);
  const remoteAddress = (port ? peer.slice(0, port.index) : peer) || undefined;
  return { remoteAddress, clientCertificate: clientCertificateOf(call.getAuthContext().sslPeerCertificate) };
}
