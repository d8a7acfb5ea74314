import { requestPath, routingPath } from '@a2a-polyglot/http';
import { createA2ARequestListener, type A2ARequestListener } from './listener.js';
import { aliasRoutes, normalizeMountPath, type A2AHttpOptions } from './options.js';
import { createA2AUpgradeHandler, type A2AUpgradeHandler } from './websocket.js';

/** One agent served under a path prefix: its listener, and its WebSocket endpoint when on. */
export interface MountedAgent {
  /** `/agents/{id}`: normalized, never the root. */
  readonly prefix: string;
  readonly options: A2AHttpOptions;
  readonly listener: A2ARequestListener;
  /** Upgrades at `${prefix}${websocketPath}` (e.g. `/agents/x/a2a/ws`); undefined when its `websocket` is off. */
  readonly upgrades?: A2AUpgradeHandler;
}

/**
 * The agents one server hosts under path prefixes, changeable while it serves: an agent
 * registry adds and removes agents without a restart. Why a table and not a list given at
 * startup: the HTTP routing, the WebSocket upgrades and the `/agents` listing must all see the
 * same set at every moment, including right after a change.
 */
export class AgentMounts {
  private readonly byPrefix = new Map<string, MountedAgent>();
  /** Longest prefix first, so `/agents/a-b` wins over `/agents/a` for its own paths. */
  private ordered: MountedAgent[] = [];
  /** The exact alias paths (`/{id}/a2a`, `/{id}/.well-known/agent-card.json`) of every agent that has one. */
  private byAliasPath = new Map<string, MountedAgent>();
  private shutdownSignal: AbortSignal | undefined;

  constructor(initial: readonly A2AHttpOptions[] = []) {
    for (const options of initial) this.add(options);
  }

  /**
   * Serves `options` under its `mountPath` (and at its `aliasPath` routes, when given) from
   * now on. Throws for the root or a prefix or alias already served (two agents cannot share one).
   */
  add(options: A2AHttpOptions): MountedAgent {
    const prefix = normalizeMountPath(options.mountPath);
    if (prefix === '') throw new Error('Every mounted agent needs a non-root mountPath');
    if (this.byPrefix.has(prefix)) throw new Error(`Two mounted agents share the mountPath ${prefix}`);
    const alias = aliasRoutes(options);
    if (alias && this.byAliasPath.has(alias.jsonRpc)) throw new Error(`Two mounted agents share the aliasPath ${normalizeMountPath(options.aliasPath)}`);
    const mounted = this.build({ ...options, mountPath: prefix });
    this.byPrefix.set(prefix, mounted);
    this.reorder();
    return mounted;
  }

  /**
   * Stops serving the agent at `mountPath`: its paths answer as unknown from this call on
   * (the prefix is free for another agent at once), and its WebSocket sockets are closed with
   * 1001; the result settles when they are. Undefined when nothing was mounted there. Its
   * handler is the caller's (shut it down there).
   */
  remove(mountPath: string): Promise<void> | undefined {
    const prefix = normalizeMountPath(mountPath);
    const mounted = this.byPrefix.get(prefix);
    if (!mounted) return undefined;
    this.byPrefix.delete(prefix);
    this.reorder();
    return mounted.upgrades ? mounted.upgrades.binding.close() : Promise.resolve();
  }

  /**
   * The agent whose prefix covers `url` (a request URL or path), longest prefix first; else the
   * agent one of whose alias routes `url` is (exactly, one trailing slash allowed as everywhere).
   */
  match(url: string | undefined): MountedAgent | undefined {
    const path = requestPath(url);
    return this.ordered.find(({ prefix }) => path === prefix || path.startsWith(`${prefix}/`)) ?? this.byAliasPath.get(routingPath(url));
  }

  /** The served agents' options, in the order they were added. */
  list(): A2AHttpOptions[] {
    return [...this.byPrefix.values()].map((m) => m.options);
  }

  /**
   * Called by the server that hosts the table: aborting `signal` ends the SSE streams and
   * WebSocket sockets of every agent, present and later added.
   */
  useShutdownSignal(signal: AbortSignal): void {
    this.shutdownSignal = signal;
    for (const [prefix, mounted] of this.byPrefix) {
      void mounted.upgrades?.binding.close();
      this.byPrefix.set(prefix, this.build(mounted.options));
    }
    this.reorder();
  }

  private build(options: A2AHttpOptions): MountedAgent {
    const withSignal = this.shutdownSignal ? { ...options, shutdownSignal: this.shutdownSignal } : options;
    return {
      prefix: normalizeMountPath(options.mountPath),
      options,
      listener: createA2ARequestListener(withSignal),
      upgrades: createA2AUpgradeHandler(withSignal),
    };
  }

  private reorder(): void {
    this.ordered = [...this.byPrefix.values()].sort((a, b) => b.prefix.length - a.prefix.length);
    this.byAliasPath = new Map();
    for (const mounted of this.ordered) {
      const alias = aliasRoutes(mounted.options);
      if (alias) for (const path of [alias.jsonRpc, alias.card]) this.byAliasPath.set(path, mounted);
    }
  }
}
