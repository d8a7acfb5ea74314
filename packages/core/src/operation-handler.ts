/**
 * What the OPERATIONS table calls: the eleven operation methods and the observer seam, as an
 * interface apart from the `RequestHandler` class. The table (and what it imports: observer,
 * call logging) depends on this, never on the handler, so the handler's modules can import
 * the table's helpers without an import circle. `RequestHandler` implements it.
 */
import type { CallContext } from './call-context.js';
import type { CallObserver } from './observer.js';
import type { OperationMethods } from './operation-types.js';
import type { Caller } from './request-handler-helpers.js';

/**
 * The A2A operations one handler serves, in the proto request and response types (spec §4):
 * one method per entry of `OPERATION_TYPES`, derived from it, so the operations are listed once.
 */
export interface OperationHandler extends OperationMethods {
  /** Metrics / traces seam; the OPERATIONS table reports every call to it. */
  readonly observer: CallObserver | undefined;
  /**
   * The preamble every operation runs (authentication, tenant, version, extensions), alone:
   * for an interceptor that answers a call itself and must know the caller first.
   */
  caller(ctx: CallContext, requestTenant: string): Promise<Caller>;
}
