import { randomUUID } from 'node:crypto';
import { chunkText, parseAgentMode, RESULT_TEXT, sleep } from './agent-mode.js';

// The SDK's type declarations are ESM; this package is CommonJS and loads the SDK's CommonJS
// build at run time, typed with the ESM declarations.
export type SdkServerModule = typeof import('@a2a-js/sdk/server', { with: { 'resolution-mode': 'import' }});
type SdkAgentExecutor = import('@a2a-js/sdk/server', { with: { 'resolution-mode': 'import' }}).AgentExecutor;
type SdkMessage = import('@a2a-js/sdk', { with: { 'resolution-mode': 'import' }}).Message;
type SdkPart = SdkMessage['parts'][number];

// Enum values of lf.a2a.v1 (identical in the SDK and in our model).
const ROLE_AGENT = 2;
const SUBMITTED = 1;
const WORKING = 2;
const COMPLETED = 3;

function textPart(text: string): SdkPart {
  return { content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: '' } as SdkPart;
}

/**
 * The same benchmark agent as `ours-agent.ts`, on the SDK's AgentExecutor: a Message reply, a
 * Task (submitted → working → one artifact → completed), K streamed chunks (optionally paced)
 * or an idle task. Events are published synchronously, as the SDK's samples do.
 */
export function createSdkBenchAgent(sdk: SdkServerModule): SdkAgentExecutor {
  const { AgentEvent } = sdk;
  return {
    async execute(rc, bus) {
      const text = rc.userMessage.parts.map((p) => (p.content?.$case === 'text' ? p.content.value : '')).join('');
      const mode = parseAgentMode(text);
      const { taskId, contextId } = rc;
      const now = () => new Date().toISOString();
      const status = (state: number) =>
        bus.publish(AgentEvent.statusUpdate({ taskId, contextId, status: { state, message: undefined, timestamp: now() }, metadata: undefined }));
      const submit = () =>
        bus.publish(
          AgentEvent.task({
            id: taskId,
            contextId,
            status: { state: SUBMITTED, message: undefined, timestamp: now() },
            artifacts: [],
            history: [rc.userMessage],
            metadata: undefined,
          }),
        );
      const artifact = (artifactId: string, chunk: string, append: boolean, lastChunk: boolean) =>
        bus.publish(
          AgentEvent.artifactUpdate({
            taskId,
            contextId,
            artifact: { artifactId, name: 'result', description: '', parts: [textPart(chunk)], metadata: undefined, extensions: [] },
            append,
            lastChunk,
            metadata: undefined,
          }),
        );

      switch (mode.kind) {
        case 'message':
          bus.publish(
            AgentEvent.message({
              messageId: randomUUID(),
              contextId,
              taskId: '',
              role: ROLE_AGENT,
              parts: [textPart(RESULT_TEXT)],
              metadata: undefined,
              extensions: [],
              referenceTaskIds: [],
            }),
          );
          return;
        case 'task':
          submit();
          status(WORKING);
          artifact(randomUUID(), RESULT_TEXT, false, true);
          status(COMPLETED);
          return;
        case 'stream': {
          submit();
          status(WORKING);
          const artifactId = randomUUID();
          for (let i = 0; i < mode.k; i++) {
            if (mode.pauseMs > 0) await sleep(mode.pauseMs);
            artifact(artifactId, chunkText(i), i > 0, i === mode.k - 1);
          }
          status(COMPLETED);
          return;
        }
        case 'idle':
          submit();
          status(WORKING);
          await new Promise<void>(() => undefined); // held until the server process stops
          return;
      }
    },
    async cancelTask() {
      // Not exercised by the benchmark.
    },
  };
}
