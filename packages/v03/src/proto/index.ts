/**
 * The v0.3 protobuf codecs (`a2a.v1`, the v0.3 gRPC and REST wire) ⇄ the v1.0 model
 * (`lf.a2a.v1`), one function per message and direction: bindings convert a decoded v0.3
 * request to v1.0, run it through the core's OPERATIONS entry, and convert the answer back.
 */
export * from './agent-card.js';
export * from './message.js';
export * from './operations.js';
export * from './push-config.js';
export * from './requests.js';
export * from './resource-names.js';
export * from './rest-routes.js';
export * from './served-operations.js';
export * from './task.js';
