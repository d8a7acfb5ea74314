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
  return { remoteAddress: peerAddress(call), clientCertificate: clientCertificateOf(call.getAuthContext().sslPeerCertificate) };
}

/** The address part of a call's peer (see {@link grpcPeer}). */
export function peerAddress(call: Pick<ServerUnaryCall<unknown, unknown>, 'getPeer'>): string | undefined {
  const peer = call.getPeer();
  const port = /:\d+$/.exec(peer);
  return (port ? peer.slice(0, port.index) : peer) || undefined;
}
