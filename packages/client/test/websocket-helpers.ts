/** Test servers and bundling for the WebSocket transport tests (Node and browser). */
import { existsSync } from 'node:fs';
import type { Socket } from 'node:net';
import { join, resolve } from 'node:path';
import { build, type Metafile, type Plugin } from 'esbuild';
import { ApiKeyAuthenticator, RequestHandler, silentLogger } from '@a2a-polyglot/core';
import { startA2AServer, type RunningA2AServer } from '@a2a-polyglot/server';
import { Gates, scriptedAgent, testCard } from './helpers.js';

/** The scripted agent behind one server with JSON-RPC, REST and the WebSocket binding on one port. */
export interface WsAgent {
  readonly handler: RequestHandler;
  readonly http: RunningA2AServer;
  readonly gates: Gates;
  /** Base URL (card discovery). */
  readonly url: string;
  /** The WebSocket endpoint, `ws://127.0.0.1:<port>/a2a/ws`. */
  readonly wsUrl: string;
  /** Drops every upgraded TCP connection at once, without a close frame (a network cut). */
  dropSockets(): number;
  close(): Promise<void>;
}

/** Starts {@link WsAgent} on 127.0.0.1:0; `apiKeys` turns authentication on. */
export async function startWsAgent(options: { apiKeys?: Record<string, string> } = {}): Promise<WsAgent> {
  const gates = new Gates();
  const handler = new RequestHandler({
    card: testCard(),
    executor: scriptedAgent(gates),
    logger: silentLogger,
    allowPrivateWebhooks: true,
    authenticator: options.apiKeys ? new ApiKeyAuthenticator({ keys: options.apiKeys }) : undefined,
  });
  const http = await startA2AServer({ handler, host: '127.0.0.1', port: 0, logger: silentLogger, sseHeartbeatMs: 0, websocket: { heartbeatMs: 0 } });
  const sockets = new Set<Socket>();
  http.server.on('upgrade', (_req, socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  return {
    handler,
    http,
    gates,
    url: http.url,
    wsUrl: `${http.url.replace('http://', 'ws://')}/a2a/ws`,
    dropSockets() {
      const n = sockets.size;
      for (const socket of sockets) socket.destroy();
      return n;
    },
    async close() {
      await handler.shutdown(0);
      await http.close();
    },
  };
}

/** Repository root (this file is packages/client/test/). */
export const REPO_ROOT = resolve(__dirname, '../../..');

/**
 * Resolves `@a2a-polyglot/<pkg>[/<sub>]` to the package sources, like the jest mapper, so
 * bundles need no prior build.
 */
const sourcesPlugin: Plugin = {
  name: 'a2a-polyglot-sources',
  setup(b) {
    b.onResolve({ filter: /^@a2a-polyglot\// }, (args) => {
      const [, pkg, ...sub] = args.path.split('/');
      const file = sub.length === 0 ? join(REPO_ROOT, 'packages', pkg!, 'src', 'index.ts') : join(REPO_ROOT, 'packages', pkg!, 'src', `${sub.join('/')}.ts`);
      return existsSync(file) ? { path: file } : { errors: [{ text: `no sources for ${args.path}` }] };
    });
  },
};

/** Bundles `entry` for browsers (`--platform=browser`): a Node-only import fails the build. */
export async function bundleForBrowser(entry: string): Promise<{ code: string; metafile: Metafile }> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    write: false,
    metafile: true,
    logLevel: 'silent',
    plugins: [sourcesPlugin],
  });
  return { code: result.outputFiles[0]!.text, metafile: result.metafile };
}
