import type { AgentExecutor, ExecutionContext } from '@a2a-polyglot/core';
import type { Message, Part } from '@a2a-polyglot/model';

/** Settings of {@link createDemoAgent}. */
export interface DemoAgentOptions {
  /** Pause between artifact chunks, so streaming is visible. Default 50 ms; 0 in fast tests. */
  readonly chunkDelayMs?: number;
  /** Words per artifact chunk. Default 3. */
  readonly wordsPerChunk?: number;
  /** Number of chunks the `slow` input streams. Default 200 (about 20 s at the default pace). */
  readonly slowChunks?: number;
  /** Pause between `slow` chunks. Default max(chunkDelayMs, 100) ms. */
  readonly slowChunkDelayMs?: number;
}

/**
 * What the demo agent reads, its card's input modes: text, JSON data and files of any type
 * (what the inspector's composer sends), each echoed.
 */
export const DEMO_INPUT_MODES: readonly string[] = ['text/plain', 'application/json', '*/*'];

/** The question the `ask` input asks. */
export const DEMO_QUESTION = 'What should I echo back? Reply to this task with your answer.';

/**
 * The built-in demo agent: an echo that exercises the protocol's interesting paths, so a
 * client author can see every task shape against a real server without writing an agent.
 *
 * | input starts with | behaviour |
 * | --- | --- |
 * | `ask` | INPUT_REQUIRED with {@link DEMO_QUESTION}; the follow-up message is echoed and completes the task |
 * | `fail` | WORKING, then FAILED with an explanatory status message |
 * | `slow` | WORKING, then a long stream of `tick N` chunks; stops as soon as the task is canceled |
 * | anything else | WORKING, `Echo: <text>` streamed as chunks of a few words (`append`, `lastChunk`), COMPLETED |
 *
 * Files and JSON data (what the inspector's composer sends beside text) are echoed as a short
 * note each, `[file "a.png", image/png, 1234 bytes]` or `[data {"a":1}]`: its card accepts any
 * input mode, and says so.
 *
 * Matching is case-insensitive and on whole words (`asking` is echoed, `ask me` asks).
 */
export function createDemoAgent(options: DemoAgentOptions = {}): AgentExecutor {
  const chunkDelayMs = options.chunkDelayMs ?? 50;
  const wordsPerChunk = Math.max(1, options.wordsPerChunk ?? 3);
  const slowChunks = options.slowChunks ?? 200;
  const slowDelayMs = options.slowChunkDelayMs ?? Math.max(chunkDelayMs, 100);

  return {
    async execute(ctx) {
      if (ctx.task) {
        // Follow-up to our `ask` question: echo the answer and finish.
        ctx.working('Got your answer');
        await streamText(ctx, echoOf(ctx.message), wordsPerChunk, chunkDelayMs);
        ctx.complete();
        return;
      }
      const command = /^\s*(ask|fail|slow)\b/i.exec(ctx.text)?.[1]?.toLowerCase();
      switch (command) {
        case 'ask':
          ctx.requireInput(DEMO_QUESTION);
          return;
        case 'fail':
          ctx.working('Working on it');
          ctx.fail('The demo agent failed on purpose (your message started with "fail")');
          return;
        case 'slow': {
          ctx.working('Streaming slowly; cancel the task to stop me');
          const id = ctx.artifact({ name: 'ticks', text: 'tick 1' });
          for (let i = 2; i <= slowChunks; i++) {
            if (!(await pause(slowDelayMs, ctx.signal))) return;
            ctx.artifact({ artifactId: id, text: ` tick ${i}`, append: true, lastChunk: i === slowChunks });
          }
          ctx.complete();
          return;
        }
        default:
          ctx.working('Echoing');
          await streamText(ctx, echoOf(ctx.message), wordsPerChunk, chunkDelayMs);
          ctx.complete();
      }
    },
  };
}

/** Longest JSON of a data part the echo repeats; longer data is cut with an ellipsis. */
const MAX_DATA_ECHO_CHARS = 200;

/** `Echo: ` and the message: text parts as they are (concatenated), every other part as a note. */
function echoOf(message: Message): string {
  return `Echo: ${message.parts.map(partEcho).join('')}`;
}

function partEcho(part: Part, index: number): string {
  const gap = index > 0 ? ' ' : '';
  const content = part.content;
  if (content?.$case === 'text') return content.value;
  if (content?.$case === 'data') {
    const json = JSON.stringify(content.value) ?? 'null';
    return `${gap}[data ${json.length > MAX_DATA_ECHO_CHARS ? `${json.slice(0, MAX_DATA_ECHO_CHARS)}…` : json}]`;
  }
  const type = part.mediaType || 'no media type';
  const name = part.filename ? `"${part.filename}", ` : '';
  if (content?.$case === 'raw') return `${gap}[file ${name}${type}, ${content.value.byteLength} bytes]`;
  if (content?.$case === 'url') return `${gap}[file ${name}${type}, at ${content.value.startsWith('data:') ? 'a data: URL' : content.value}]`;
  return '';
}

/** Streams `text` as one artifact, `wordsPerChunk` words per chunk; stops early on abort. */
async function streamText(ctx: ExecutionContext, text: string, wordsPerChunk: number, delayMs: number): Promise<void> {
  const words = text.split(/(?<=\s)/); // keep the whitespace with each word so chunks concatenate back exactly
  const chunks: string[] = [];
  for (let i = 0; i < words.length; i += wordsPerChunk) chunks.push(words.slice(i, i + wordsPerChunk).join(''));
  let id: string | undefined;
  for (let i = 0; i < chunks.length; i++) {
    if (i > 0 && !(await pause(delayMs, ctx.signal))) return;
    const last = i === chunks.length - 1;
    id = ctx.artifact({ artifactId: id, name: 'echo', text: chunks[i], append: i > 0, lastChunk: last });
  }
}

/** Waits `ms`; resolves false (early) when `signal` aborts. */
function pause(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  if (ms <= 0) return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (ok: boolean) => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      resolve(ok);
    };
    const onAbort = () => done(false);
    const timer = setTimeout(() => done(true), ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
