import type { ChildProcess } from 'node:child_process';

/** A request from the orchestrator to a child (server or load generator). */
export interface IpcRequest {
  readonly id: number;
  readonly type: string;
  readonly payload?: unknown;
}

/** A child's answer to one {@link IpcRequest}. */
export interface IpcReply {
  readonly id: number;
  readonly ok: boolean;
  readonly result?: unknown;
  readonly error?: string;
}

/** An unsolicited message from a child (ready, progress). */
export interface IpcEvent {
  readonly event: string;
  readonly payload?: unknown;
}

/**
 * What a child does for one request type. Written as a method type on purpose: method
 * parameters are bivariant, so a handler may declare the payload type its request carries
 * (`(job: LoadJob) => ...`) while the channel itself only knows `unknown`. Parent and child
 * are the same program and agree on the payload by the request type name.
 */
export type IpcHandler = { handle(payload: unknown): unknown }['handle'];

/** Receives the payload of one child event; bivariant for the same reason as {@link IpcHandler}. */
export type IpcListener = { listen(payload: unknown): void }['listen'];

/**
 * Child side: answers requests from the parent over the IPC channel. A child whose parent
 * disappears exits at once, so an aborted run never leaves servers or load behind.
 */
export function serveIpc(handlers: Readonly<Record<string, IpcHandler>>): void {
  process.on('message', (raw: unknown) => {
    const msg = raw as IpcRequest;
    if (typeof msg !== 'object' || msg === null || typeof msg.id !== 'number') return;
    const handler = handlers[msg.type];
    const reply = (r: IpcReply) => {
      if (process.connected) process.send?.(r);
    };
    if (!handler) {
      reply({ id: msg.id, ok: false, error: `unknown request ${msg.type}` });
      return;
    }
    Promise.resolve()
      .then(() => handler(msg.payload))
      .then(
        (result) => reply({ id: msg.id, ok: true, result }),
        (error: unknown) => reply({ id: msg.id, ok: false, error: (error as Error)?.message ?? String(error) }),
      );
  });
  process.on('disconnect', () => process.exit(0));
}

/** Child side: sends an event to the parent (ignored when there is no parent). */
export function emitEvent(event: string, payload?: unknown): void {
  if (process.connected) process.send?.({ event, payload } satisfies IpcEvent);
}

/**
 * Parent side: request/response calls to one child, with a timeout on every call so a
 * hung child cannot hang the run.
 */
export class IpcClient {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void; timer: NodeJS.Timeout }>();
  private readonly listeners = new Map<string, IpcListener[]>();
  private exitError: Error | undefined;

  constructor(
    private readonly child: ChildProcess,
    private readonly name: string,
  ) {
    child.on('message', (raw: unknown) => {
      const msg = raw as IpcReply & IpcEvent;
      if (typeof msg?.event === 'string') {
        for (const l of this.listeners.get(msg.event) ?? []) l(msg.payload);
        return;
      }
      const waiter = this.pending.get(msg?.id);
      if (!waiter) return;
      this.pending.delete(msg.id);
      clearTimeout(waiter.timer);
      if (msg.ok) waiter.resolve(msg.result);
      else waiter.reject(new Error(`${name}: ${msg.error}`));
    });
    child.on('exit', (code, signal) => {
      this.exitError = new Error(`${name} exited (${signal ?? `code ${code}`})`);
      for (const [id, waiter] of this.pending) {
        clearTimeout(waiter.timer);
        waiter.reject(this.exitError);
        this.pending.delete(id);
      }
      for (const l of this.listeners.get('exit') ?? []) l({ code, signal });
    });
  }

  /** True once the child has exited. */
  get exited(): boolean {
    return this.exitError !== undefined;
  }

  /** Sends a request and waits for its reply, at most `timeoutMs`. */
  call<T>(type: string, payload?: unknown, timeoutMs = 60_000): Promise<T> {
    if (this.exitError) return Promise.reject(this.exitError);
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`${this.name}: ${type} timed out after ${timeoutMs} ms`));
      }, timeoutMs);
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject, timer });
      this.child.send({ id, type, payload } satisfies IpcRequest, (error) => {
        if (!error) return;
        clearTimeout(timer);
        this.pending.delete(id);
        reject(new Error(`${this.name}: cannot send ${type}: ${error.message}`));
      });
    });
  }

  /** Listens to an event from the child (`exit` is emitted when the process ends). */
  on(event: string, listener: IpcListener): void {
    const list = this.listeners.get(event) ?? [];
    list.push(listener);
    this.listeners.set(event, list);
  }

  /** Waits for one event, at most `timeoutMs`; rejects if the child exits first. */
  once<T>(event: string, timeoutMs: number): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (this.exitError) return reject(this.exitError);
      const timer = setTimeout(() => reject(new Error(`${this.name}: no ${event} within ${timeoutMs} ms`)), timeoutMs);
      this.on(event, (payload) => {
        clearTimeout(timer);
        resolve(payload as T);
      });
      this.on('exit', () => {
        clearTimeout(timer);
        reject(this.exitError ?? new Error(`${this.name} exited`));
      });
    });
  }
}
