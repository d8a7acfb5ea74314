import type { RequestHandlerOptions } from '@a2a-polyglot/core';
import { PINNED_WEBHOOK_NETWORK } from '@a2a-polyglot/server';
import { V03_WEBHOOK_ENCODING } from '@a2a-polyglot/v03/json';
import type { ExecutorConfig } from './config.js';

/**
 * The webhook options of every handler the executor builds (the single agent and each mounted
 * one): private addresses as configured, v0.3 bodies for configs registered through the
 * v0.3 bindings the executor serves, so a v0.3 receiver can parse what it gets, and the
 * node:http network with DNS pinning (named here, whichever binding serves the handler).
 */
export function pushHandlerOptions(
  config: Pick<ExecutorConfig, 'push'>,
): Pick<RequestHandlerOptions, 'allowPrivateWebhooks' | 'webhookEncodings' | 'webhookNetwork'> {
  return { allowPrivateWebhooks: config.push.allowPrivateNetworks, webhookEncodings: { '0.3': V03_WEBHOOK_ENCODING }, webhookNetwork: PINNED_WEBHOOK_NETWORK };
}
