import type { Logger } from '@a2a-polyglot/core';
import type Redis from 'ioredis';

/**
 * Multiplexes one subscriber-mode connection over any number of listeners: a channel is
 * subscribed while it has a listener. After a reconnect (ioredis resubscribes by itself),
 * `onReconnect` listeners run, because messages published meanwhile were lost.
 */
export class RedisSubscriber {
  private readonly channels = new Map<string, Set<(message: string) => void>>();
  private readonly reconnectListeners = new Set<() => void>();
  /** Per channel: resolves once Redis confirmed the SUBSCRIBE. */
  private readonly confirmed = new Map<string, Promise<void>>();
  private connectedOnce = false;

  constructor(
    private readonly connection: Redis,
    private readonly logger: Logger,
  ) {
    connection.on('message', (channel: string, message: string) => {
      for (const listener of [...(this.channels.get(channel) ?? [])]) {
        try {
          listener(message);
        } catch (error) {
          this.logger.error({ channel, err: error }, 'Redis message listener failed');
        }
      }
    });
    connection.on('ready', () => {
      if (!this.connectedOnce) {
        this.connectedOnce = true;
        return;
      }
      for (const listener of [...this.reconnectListeners]) listener();
    });
    if (connection.status === 'ready') this.connectedOnce = true;
  }

  /**
   * Adds a listener for `channel`. Resolves, with the function that removes it, once Redis
   * confirmed the subscription, so a caller can then re-check state without missing a message.
   */
  async subscribe(channel: string, listener: (message: string) => void): Promise<() => void> {
    let listeners = this.channels.get(channel);
    if (!listeners) {
      listeners = new Set();
      this.channels.set(channel, listeners);
      this.confirmed.set(
        channel,
        this.connection.subscribe(channel).then(() => undefined),
      );
    }
    listeners.add(listener);
    const remove = () => {
      const current = this.channels.get(channel);
      if (!current?.delete(listener) || current.size > 0) return;
      this.channels.delete(channel);
      this.confirmed.delete(channel);
      this.connection.unsubscribe(channel).catch(() => undefined);
    };
    try {
      // Later listeners wait for the same confirmation as the first.
      await this.confirmed.get(channel);
    } catch (error) {
      remove();
      throw error;
    }
    return remove;
  }

  /** Runs `listener` after each reconnect; returns the function that removes it. */
  onReconnect(listener: () => void): () => void {
    this.reconnectListeners.add(listener);
    return () => this.reconnectListeners.delete(listener);
  }

  /** Channels currently subscribed (tests, metrics). */
  get channelCount(): number {
    return this.channels.size;
  }
}
