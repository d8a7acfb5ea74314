import type { CallContext } from '@a2a-polyglot/core';

/**
 * The {@link CallContext} of one WebSocket request: the message's `serviceParams` over the
 * upgrade request's headers (both already lower-case), and the call's abort signal made only
 * when somebody reads it.
 *
 * Why not core's `callContext`: that copies every header into a fresh Map per call, and the
 * binding would make an AbortController per call up front. A socket serves many calls with
 * the same headers, and most unary calls are answered before anything listens for the caller
 * leaving; per call this costs one object and one closure instead.
 */
export function webSocketCallContext(
  headers: Readonly<Record<string, string>>,
  serviceParams: Readonly<Record<string, string>>,
  signal: () => AbortSignal,
): CallContext {
  return {
    binding: 'WEBSOCKET',
    get signal(): AbortSignal {
      return signal();
    },
    header(name: string): string | undefined {
      const key = name.toLowerCase();
      if (Object.hasOwn(serviceParams, key)) return serviceParams[key];
      return Object.hasOwn(headers, key) ? headers[key] : undefined;
    },
  };
}
