import { streamEventToJson, type OperationName } from '@a2a-polyglot/core';
import type { StreamResponse } from '@a2a-polyglot/model';
import type * as v03 from '@a2a-polyglot/model/v03';
import { streamResponseToV1, V03_OPERATIONS, type V03Operation } from '@a2a-polyglot/v03/proto';

/**
 * How the v0.3 drivers (gRPC and REST) carry an operation: the table lives with the v0.3 codec
 * (`V03_OPERATIONS`, shared with our client's v0.3 transports); the drivers convert the
 * scenario's v1.0 request to v0.3 and the v0.3 answer back, so outcomes compare with v1.0's.
 * @internal
 */
export type V03Translation = V03Operation;

/** Every operation v0.3 can express (ListTasks has no v0.3 form). @internal */
export const V03_TRANSLATIONS = V03_OPERATIONS;

/** The translation of an operation, or an error naming what v0.3 cannot express. @internal */
export function v03Translation(operation: string): V03Translation {
  const t = V03_TRANSLATIONS[operation as OperationName];
  if (!t) throw new Error(`A2A v0.3 has no form of ${operation}`);
  return t;
}

/** A v0.3 stream event as the v1.0 StreamResponse JSON the comparator expects. @internal */
export function v03EventToJson(event: v03.StreamResponse): unknown {
  return streamEventToJson(streamResponseToV1(event) as StreamResponse);
}
