import type { ReadinessReport } from '@a2a-polyglot/core';
import {
  type HealthCheckRequest,
  HealthCheckResponse,
  HealthCheckResponse_ServingStatus as Status,
  type HealthServer,
  HealthService,
} from '@a2a-polyglot/model/grpc';
import {
  type sendUnaryData,
  type Server,
  type ServerUnaryCall,
  type ServerWritableStream,
  type ServiceError,
  type UntypedServiceImplementation,
  status as GrpcCode,
} from '@grpc/grpc-js';
import { toGrpcError } from './grpc-error.js';
import { UndecodableRequest, withSafeDeserializers } from './safe-decode.js';

/** The service names the health service answers for; `''` is the server as a whole. */
export const HEALTH_SERVICE_NAMES: readonly string[] = ['', 'lf.a2a.v1.A2AService', 'lf.a2a.v1.A2ASessionService', 'a2a.v1.A2AService'];

/** Options of {@link addHealthService}. */
export interface HealthServiceOptions {
  /** The readiness every served name reports (the same the HTTP `/readyz` reports). */
  readonly readiness: () => Promise<ReadinessReport>;
  /** Service names to answer for. Default {@link HEALTH_SERVICE_NAMES}. */
  readonly services?: readonly string[];
  /**
   * How often a Watch re-evaluates readiness (it is a poll: backends change without telling
   * us). Default 5000 ms.
   */
  readonly watchIntervalMs?: number;
}

/** Handle on the registered health service. */
export interface HealthServiceBinding {
  /** Tells every open Watch NOT_SERVING, then ends it (server close). */
  shutdown(): void;
}

/**
 * Registers the standard `grpc.health.v1.Health` service: `Check` answers SERVING when the
 * service is ready (not draining, store and event log reachable), NOT_SERVING otherwise, and
 * NOT_FOUND for a name it does not serve; `Watch` sends the status, then each change.
 * Kubernetes `grpc` probes and grpc_health_probe speak exactly this.
 */
export function addHealthService(server: Server, options: HealthServiceOptions): HealthServiceBinding {
  const names = new Set(options.services ?? HEALTH_SERVICE_NAMES);
  const intervalMs = options.watchIntervalMs ?? 5000;
  const watches = new Set<ServerWritableStream<HealthCheckRequest, HealthCheckResponse>>();

  async function statusOf(): Promise<Status> {
    const report = await options.readiness();
    return report.ready ? Status.SERVING : Status.NOT_SERVING;
  }

  const implementation: HealthServer = {
    check(call: ServerUnaryCall<HealthCheckRequest, HealthCheckResponse>, callback: sendUnaryData<HealthCheckResponse>) {
      const request: HealthCheckRequest | UndecodableRequest = call.request;
      if (request instanceof UndecodableRequest) {
        callback(toGrpcError(request.error) as ServiceError);
        return;
      }
      if (!names.has(call.request.service)) {
        callback({ code: GrpcCode.NOT_FOUND, details: `Unknown service ${call.request.service}` });
        return;
      }
      statusOf().then(
        (s) => callback(null, { status: s }),
        () => callback(null, { status: Status.NOT_SERVING }),
      );
    },
    watch(call: ServerWritableStream<HealthCheckRequest, HealthCheckResponse>) {
      const request: HealthCheckRequest | UndecodableRequest = call.request;
      if (request instanceof UndecodableRequest) {
        call.emit('error', toGrpcError(request.error));
        return;
      }
      watches.add(call);
      let last: Status | undefined;
      const send = async () => {
        const next = names.has(call.request.service) ? await statusOf().catch(() => Status.NOT_SERVING) : Status.SERVICE_UNKNOWN;
        if (next !== last && !call.cancelled && !call.destroyed) {
          last = next;
          call.write(HealthCheckResponse.fromPartial({ status: next }));
        }
      };
      const timer = setInterval(() => void send(), intervalMs);
      timer.unref?.();
      const stop = () => {
        clearInterval(timer);
        watches.delete(call);
      };
      call.on('cancelled', stop);
      call.on('close', stop);
      void send();
    },
  };
  // Malformed request bytes answer INVALID_ARGUMENT like on the A2A services (grpc-js alone: INTERNAL).
  server.addService(withSafeDeserializers(HealthService), implementation as unknown as UntypedServiceImplementation);
  return {
    shutdown() {
      for (const call of watches) {
        if (!call.cancelled && !call.destroyed) call.write(HealthCheckResponse.fromPartial({ status: Status.NOT_SERVING }));
        call.end();
      }
      watches.clear();
    },
  };
}
