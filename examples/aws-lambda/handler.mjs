/**
 * An A2A agent on AWS Lambda, built from the demo echo agent:
 *
 * - `handler`: buffered, for API Gateway HTTP API (payload 2.0), API Gateway REST (v1) and
 *   Function URL events in BUFFERED mode. An SSE stream is returned whole when the task ends.
 * - `streamingHandler`: for a Function URL in RESPONSE_STREAM mode; SSE events reach the client
 *   as they happen. It exists only where the Lambda runtime's `awslambda` global does (inside
 *   Lambda, or after a local stand-in is installed, as `invoke.mjs` does).
 *
 * Stores are in memory: a task lives only as long as the execution environment that ran it.
 */
import { RequestHandler } from '@a2a-polyglot/core';
import { AgentCard } from '@a2a-polyglot/model';
import { createA2ALambdaHandler, createA2AStreamingLambdaHandler } from '@a2a-polyglot/server';

const requestHandler = new RequestHandler({
  card: AgentCard.fromPartial({
    name: 'Lambda echo',
    description: 'Says your message back, served from AWS Lambda.',
    version: '1.0.0',
    capabilities: { streaming: true },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 'echo', name: 'Echo', description: 'Repeats the message.', tags: ['example'], examples: ['hello'] }],
  }),
  executor: {
    async execute(ctx) {
      ctx.artifact({ name: 'answer', text: `You said: ${ctx.text}`, lastChunk: true });
      ctx.complete();
    },
  },
});

// Buffered: an SSE answer ends when its task does, or 1 s (`timeoutMarginMs`) before the
// invocation's deadline with the events so far.
export const handler = createA2ALambdaHandler({ handler: requestHandler });

export const streamingHandler = globalThis.awslambda ? createA2AStreamingLambdaHandler({ handler: requestHandler }) : undefined;
