import type { Binding } from './driver.js';
import { grpcSessionBinding } from './drivers/grpc-session.js';
import { grpcBinding, grpcV03Binding } from './drivers/grpc.js';
import { inProcessBinding } from './drivers/in-process.js';
import { jsonRpcV03Binding } from './drivers/jsonrpc-v03.js';
import { jsonRpcBinding, jsonRpcFetchBinding, jsonRpcLambdaBinding } from './drivers/jsonrpc.js';
import { restBinding, restFetchBinding, restLambdaBinding } from './drivers/rest.js';
import { restV03Binding } from './drivers/rest-v03.js';
import { webSocketBinding } from './drivers/websocket.js';

/**
 * Every binding the suite runs, reference first (cross-binding identity compares the others
 * with it). A new binding adds its driver file and one line here.
 */
export const BINDINGS: readonly Binding[] = [
  inProcessBinding,
  jsonRpcBinding,
  jsonRpcV03Binding,
  restBinding,
  restV03Binding,
  webSocketBinding,
  grpcBinding,
  grpcV03Binding,
  grpcSessionBinding,
  // The HTTP bindings on the other runtimes: the same drivers, the handler called in process.
  jsonRpcFetchBinding,
  restFetchBinding,
  jsonRpcLambdaBinding,
  restLambdaBinding,
];
