/**
 * The browser side of websocket-browser.test.ts, bundled by esbuild (--platform=browser)
 * and loaded in headless Chromium. It uses the client exactly as a web app would: the
 * global WebSocket, the card fetched with the page's fetch, a token in the auth subprotocol.
 * The test drives it through `globalThis.a2aTest`; every answer is plain JSON.
 */
import { A2AError } from '@a2a-polyglot/core';
import { taskStateToJSON, type Task } from '@a2a-polyglot/model';
import { Client, clientFailureOf, eventText, textMessage, WEBSOCKET_BINDING, type ClientEvent, type TaskStream } from '../src/index.js';
import { webSocketTransportFactory } from '../src/transports/websocket.js';

/** One event as the test sees it. */
interface SeenEvent {
  readonly seq: number | undefined;
  readonly kind: string | undefined;
  readonly state?: string;
  readonly text: string;
}

/** A stream running in the page, observed by the test. */
interface StreamRun {
  readonly events: SeenEvent[];
  done: boolean;
  end?: string;
  resumes: number;
  error?: { code: string; message: string; failure?: string };
  taskId?: string;
}

let client: Client | undefined;
const runs = new Map<string, StreamRun>();

function seen({ seq, event }: ClientEvent): SeenEvent {
  const p = event.payload;
  const status = p?.$case === 'task' || p?.$case === 'statusUpdate' ? p.value.status : undefined;
  return { seq, kind: p?.$case, ...(status?.state !== undefined ? { state: taskStateToJSON(status.state) } : {}), text: eventText(event) };
}

function describeError(error: unknown): { code: string; message: string; failure?: string } {
  const e = A2AError.from(error);
  return { code: e.code, message: e.message, failure: clientFailureOf(e) };
}

function current(): Client {
  if (!client) throw new Error('connect first');
  return client;
}

function taskOf(response: { payload?: { $case: string; value: unknown } }): Task {
  if (response.payload?.$case !== 'task') throw new Error(`expected a task, got ${response.payload?.$case}`);
  return response.payload.value as Task;
}

async function drain(name: string, stream: TaskStream, run: StreamRun, stopAfter?: number): Promise<void> {
  try {
    for await (const item of stream) {
      run.events.push(seen(item));
      run.taskId ??= stream.taskId;
      if (stopAfter !== undefined && run.events.length >= stopAfter) break; // leaving early: cancelStream
    }
    run.end = stream.end;
  } catch (error) {
    run.error = describeError(error);
  } finally {
    run.resumes = stream.resumes;
    run.taskId ??= stream.taskId;
    run.done = true;
    runs.set(name, run);
  }
}

const api = {
  /** Card discovery at the page's origin, then the WebSocket interface with a bearer token. */
  async connect(token: string) {
    const { origin } = (globalThis as unknown as { location: { origin: string } }).location;
    client = await Client.connect(origin, {
      bindings: ['websocket'],
      transports: { [WEBSOCKET_BINDING]: webSocketTransportFactory({ token }) },
      resume: { attempts: 5, initialDelayMs: 20, maxDelayMs: 200 },
    });
    return { binding: client.binding, url: client.agentInterface.url, cardName: client.card.name };
  },

  /** SendMessage (blocking): the final task's state and text. */
  async send(text: string) {
    const task = taskOf(await current().sendMessage({ message: textMessage(text) }));
    return {
      id: task.id,
      state: taskStateToJSON(task.status!.state),
      artifacts: task.artifacts.map((a) => a.parts.map((p) => (p.content?.$case === 'text' ? p.content.value : '')).join('')),
    };
  },

  /** SendMessage that returns at once, then CancelTask. */
  async sendAndCancel(text: string) {
    const started = taskOf(await current().sendMessage({ message: textMessage(text), configuration: { returnImmediately: true } }));
    const canceled = await current().cancelTask({ id: started.id });
    return { id: started.id, state: taskStateToJSON(canceled.status!.state) };
  },

  /** Starts a SendStreamingMessage in the background; `stopAfter` leaves early (cancelStream). */
  startStream(name: string, text: string, stopAfter?: number) {
    const run: StreamRun = { events: [], done: false, resumes: 0 };
    runs.set(name, run);
    void drain(name, current().sendStreamingMessage({ message: textMessage(text) }), run, stopAfter);
  },

  /** What a background stream has seen so far. */
  run(name: string): StreamRun | undefined {
    return runs.get(name);
  },

  /** GetTask: the task's state. */
  async taskState(id: string) {
    return taskStateToJSON((await current().getTask({ id })).status!.state);
  },

  /** A call that must fail: its error, described. */
  async failing(id: string) {
    try {
      await current().getTask({ id });
      return undefined;
    } catch (error) {
      return describeError(error);
    }
  },
};

(globalThis as unknown as { a2aTest: typeof api }).a2aTest = api;
