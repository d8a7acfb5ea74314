/**
 * Defaults of the Redis event log's bounds, apart from the log so the root entry point can
 * export them without loading `ioredis` (the executor's config defaults read them).
 */

/** Default of `RedisEventLogOptions.maxBytesPerTask`: 32 MiB of Redis memory per task log. */
export const DEFAULT_REDIS_LOG_MAX_BYTES_PER_TASK = 32 * 1024 * 1024;
