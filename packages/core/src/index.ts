/**
 * @a2a-polyglot/core — the A2A semantics, once: errors and their wire tables, the task state
 * machine, task store, numbered event log, push delivery, and the request handler that
 * every binding calls. Nothing in here opens a socket.
 *
 * The entry point is the union of four faces, one per audience, each also a subpath of its
 * own so an import says who it is for. A name that is in none of them is not part of the
 * package's interface: it stays in its module, for core and core's tests.
 */

// Agent authors and hosts (`@a2a-polyglot/core/agent`): the executor contract, message helpers,
// the request handler and its options.
export * from './agent.js';

// Store and event-log authors (`@a2a-polyglot/core/store`): the storage contracts and the
// in-memory defaults.
export * from './store.js';

// Binding authors (`@a2a-polyglot/core/binding`): the operation table, the served-handler
// contract, call contexts, the error table, event streams, version negotiation.
export * from './binding.js';

// Observability (`@a2a-polyglot/core/observability`): the observer seam, store timing, loggers.
export * from './observability.js';

// Internal to the monorepo: what another package of this repository shares with core but no
// agent, store or binding author needs.
/**
 * @internal The webhook address policy, for the server's and the executor's own address
 * checks (listeners, trusted proxies); not a stable interface.
 */
export { isIpAddress, isLoopbackAddress } from './push/address-policy.js';
