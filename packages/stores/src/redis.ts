/**
 * `@a2a-polyglot/stores/redis`: what instances share beyond the database — the event log on
 * Redis Streams (streams, resumes and waits across instances) and the cancel signals on Redis
 * pub/sub. Two connections per instance. Needs `ioredis`.
 *
 * @example
 * const redis = await RedisConnections.connect({ url: process.env.A2A_REDIS_URL! });
 * new RequestHandler({ ..., eventLog: new RedisEventLog(redis), cluster: { instanceId, signals: new RedisTaskSignals(redis) } });
 */
export * from './redis/connections.js';
export * from './redis/subscriber.js';
export * from './redis/event-log.js';
export * from './redis/signals.js';
