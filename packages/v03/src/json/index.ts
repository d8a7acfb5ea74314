/**
 * The v0.3 JSON-RPC codec (spec §6.2, §12.2): every v0.3 method as a translation around the
 * v1.0 operation that does the work, the objects both ways, v0.3 errors, and the v0.3 card.
 */
export * from './agent-card.js';
export * from './content.js';
export * from './enums.js';
export * from './errors.js';
export * from './json-object.js';
export * from './methods.js';
export * from './params.js';
export * from './push-config.js';
export * from './task.js';
export * from './webhook.js';
