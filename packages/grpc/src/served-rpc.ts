import type { Logger } from '@a2a-polyglot/core';
import type { AdmitCall } from './call-admission.js';
import type { GrpcDialect, RpcRoute } from './grpc-dialect.js';

/** Everything serving calls of one registered RPC needs, fixed when the service is added. */
export interface ServedRpc {
  readonly route: RpcRoute;
  /** Spends the call's address point on the agent that serves it, decodes and routes it (see `callAdmission`). */
  readonly admit: AdmitCall;
  readonly dialect: GrpcDialect;
  /** Where unexpected failures are logged (a call's own logger is preferred once it has one). */
  readonly logger: Logger;
}
