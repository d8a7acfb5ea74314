/**
 * `@a2a-polyglot/v03/json` — the v0.3 JSON-RPC codec: v0.3 objects (`kind`, kebab-case states,
 * `file.bytes|uri`), method params and results, errors and the v0.3 agent card, translated to
 * and from v1.0 JSON for the one strict decoder. Used by the JSON-RPC binding and the card.
 */
export * from './json/index.js';
