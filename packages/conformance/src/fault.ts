import { eventStreamFrom, interceptOperation, type EventStream, type LoggedEvent, type OperationInterceptor } from '@a2a-polyglot/core';

/**
 * A failure a scenario injects into the server side, for behaviour no agent can cause: the
 * handler's own event stream breaking with an internal error. The scripted agent cannot do
 * it (an agent that throws fails its task, it does not break the stream), so the scenario's
 * handler gets an interceptor instead; nothing in it names a binding.
 */
export interface ScenarioFault {
  /**
   * Every SendStreamingMessage stream passes this many events on, then throws an Error whose
   * message is {@link ScenarioFault.detail}: what each binding must end with its own error
   * frame (code INTERNAL), without the detail.
   */
  readonly streamFailsAfter: number;
  /** The internal error text; a step's `expect.messageOmits` checks it never reaches the client. */
  readonly detail: string;
}

/** The interceptors that inject a scenario's fault into its handler (none without one). */
export function faultInterceptors(fault: ScenarioFault | undefined): OperationInterceptor[] {
  if (!fault) return [];
  return [interceptOperation('SendStreamingMessage', async (call, next) => failingAfter(await next(call), fault))];
}

/**
 * `stream`'s first `fault.streamFailsAfter` events, then the failure (also when the stream
 * ends sooner). Hand-written: a few lines over the core's own `eventStreamFrom`.
 */
function failingAfter(stream: EventStream, fault: ScenarioFault): EventStream {
  return eventStreamFrom({
    close: () => stream.close(),
    async *[Symbol.asyncIterator](): AsyncGenerator<LoggedEvent> {
      let passed = 0;
      if (passed < fault.streamFailsAfter)
        for await (const event of stream) {
          yield event;
          if (++passed >= fault.streamFailsAfter) break;
        }
      stream.close();
      throw new Error(fault.detail);
    },
  });
}
