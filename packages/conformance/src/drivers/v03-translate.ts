import { streamEventToJson, type OperationName } from '@a2a-polyglot/core';
import type { StreamResponse } from '@a2a-polyglot/model';
import type * as v03 from '@a2a-polyglot/model/v03';
import { isFinalV03State, streamEventFromV03 } from '@a2a-polyglot/v03/json';
import { streamResponseToV1, V03_OPERATIONS, type V03Operation } from '@a2a-polyglot/v03/proto';
import type { Delivery } from '../webhook-receiver.js';
import { WIRE_VIOLATION } from './http-common.js';

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

/**
 * A webhook delivery to a config registered through a v0.3 binding, as the v1.0 delivery the
 * comparator expects, once it passed what a v0.3 receiver needs: `Content-Type:
 * application/json` (reported as the v1.0 `application/a2a+json` it stands for), a bare v0.3
 * object with `kind`, kebab-case states, and `final` on a status update exactly when the
 * state ends the task. A delivery that fails reports the problem as its body (WIRE_VIOLATION).
 * @internal
 */
export function v03DeliveryToV1(delivery: Delivery): Delivery {
  const problem = v03DeliveryProblem(delivery);
  if (problem) return { ...delivery, body: `${WIRE_VIOLATION}: ${problem}` };
  return { ...delivery, contentType: 'application/a2a+json', body: streamEventFromV03(delivery.body, 'body') };
}

function v03DeliveryProblem(delivery: Delivery): string | undefined {
  if (delivery.contentType !== 'application/json') return `content type ${JSON.stringify(delivery.contentType)}, not application/json`;
  const body = delivery.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'the body is not a JSON object';
  const event = body as Record<string, unknown>;
  try {
    streamEventFromV03(event, 'body');
  } catch (error) {
    return (error as Error).message;
  }
  if (event.kind === 'status-update') {
    const state = (event.status as { state?: unknown } | undefined)?.state;
    if (event.final !== isFinalV03State(String(state))) return `status-update ${String(state)} with final ${String(event.final)}`;
  }
  return undefined;
}
