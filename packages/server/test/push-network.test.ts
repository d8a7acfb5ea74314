/**
 * Which webhook network each entry point offers the handler it serves: the node:http
 * listener and the Lambda adapters (Node runtimes) offer the pinned node:http one, the fetch
 * handler offers none, so the core's fetch default (no DNS pinning) stays for fetch runtimes.
 */
import { RequestHandler } from '@a2a-polyglot/core';
import { PINNED_WEBHOOK_NETWORK } from '@a2a-polyglot/http';
import { testAgentCard } from '@a2a-polyglot/testing';
import { createA2AFetchHandler, createA2ALambdaHandler, createA2ARequestListener } from '../src/index.js';

const handler = () => {
  const h = new RequestHandler({
    card: testAgentCard(),
    executor: {
      async execute(c) {
        c.complete();
      },
    },
  });
  return { h, offered: jest.spyOn(h, 'useWebhookNetwork') };
};

describe('the webhook network an entry point offers', () => {
  it('the node:http listener offers the pinned node:http network', () => {
    const { h, offered } = handler();
    createA2ARequestListener({ handler: h });
    expect(offered).toHaveBeenCalledWith(PINNED_WEBHOOK_NETWORK);
  });

  it('the Lambda handler (a Node runtime) offers the pinned node:http network', () => {
    const { h, offered } = handler();
    createA2ALambdaHandler({ handler: h });
    expect(offered).toHaveBeenCalledWith(PINNED_WEBHOOK_NETWORK);
  });

  it('the fetch handler offers none: the core default, fetch without DNS pinning, stays', () => {
    const { h, offered } = handler();
    createA2AFetchHandler({ handler: h });
    expect(offered).not.toHaveBeenCalled();
  });
});
