import { silentLogger, type Logger } from '@a2a-polyglot/core';
import Redis, { type RedisOptions } from 'ioredis';
import { redactUrl } from '../errors.js';
import { RedisSubscriber } from './subscriber.js';

/** How to reach Redis. */
export interface RedisConnectionOptions {
  /** `redis://[:password@]host:port[/db]` (or `rediss://` for TLS). */
  readonly url: string;
  /** How long to wait for the first connection at startup. Default 5 s. */
  readonly connectTimeoutMs?: number;
  readonly logger?: Logger;
}

/**
 * The two connections an instance keeps to Redis, whatever the number of tasks and streams:
 * one for commands (pipelined by ioredis) and one in subscriber mode, shared by every waiting
 * stream and by the cancel signals.
 *
 * The command connection has no offline queue, so while Redis is down a request fails at once
 * with Unavailable instead of hanging; both connections reconnect by themselves (every 2 s at
 * most) and `error` events are logged, never thrown.
 */
export class RedisConnections {
  private constructor(
    readonly commands: Redis,
    readonly subscriber: RedisSubscriber,
    private readonly subscriberConnection: Redis,
  ) {}

  /** Connects both; rejects (and leaves nothing running) when Redis cannot be reached. */
  static async connect(options: RedisConnectionOptions): Promise<RedisConnections> {
    const logger = options.logger ?? silentLogger;
    const base: RedisOptions = {
      lazyConnect: true,
      connectTimeout: options.connectTimeoutMs ?? 5000,
      maxRetriesPerRequest: 1,
      retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
    };
    const commands = new Redis(options.url, { ...base, enableOfflineQueue: false, connectionName: 'a2a-commands' });
    const subscriberConnection = new Redis(options.url, { ...base, enableOfflineQueue: true, maxRetriesPerRequest: null, connectionName: 'a2a-subscriber' });
    const server = redactUrl(options.url);
    for (const [name, connection] of [
      ['commands', commands],
      ['subscriber', subscriberConnection],
    ] as const) {
      let lastWarn = 0;
      connection.on('error', (error: Error) => {
        if (Date.now() - lastWarn < 5000) return;
        lastWarn = Date.now();
        logger.warn({ server, connection: name, err: error.message }, 'Redis connection error');
      });
    }
    try {
      await Promise.all([commands.connect(), subscriberConnection.connect()]);
    } catch (error) {
      commands.disconnect();
      subscriberConnection.disconnect();
      throw new Error(`Cannot connect to Redis at ${server}: ${(error as Error).message}`);
    }
    return new RedisConnections(commands, new RedisSubscriber(subscriberConnection, logger), subscriberConnection);
  }

  /**
   * Closes both connections, never waiting on an unreachable Redis: a connected one gets QUIT
   * (pending commands are flushed first) for at most `quitTimeoutMs`, then is dropped; one that
   * is down or reconnecting is dropped at once. (QUIT on the subscriber, whose offline queue is
   * on, would otherwise wait for a reconnect that may never come, and hang the shutdown.)
   */
  async close(quitTimeoutMs = 1000): Promise<void> {
    await Promise.all([closeConnection(this.commands, quitTimeoutMs), closeConnection(this.subscriberConnection, quitTimeoutMs)]);
  }
}

/** QUIT when connected (bounded by `timeoutMs`), otherwise, or after that, disconnect. */
async function closeConnection(connection: Redis, timeoutMs: number): Promise<void> {
  if (connection.status !== 'ready') {
    connection.disconnect();
    return;
  }
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    await Promise.race([connection.quit(), new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('QUIT timed out')), timeoutMs)))]);
  } catch {
    // Unanswered or failed: drop the socket.
    connection.disconnect();
  } finally {
    clearTimeout(timer);
  }
}
