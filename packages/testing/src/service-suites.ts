import { connect } from 'node:net';

/** A service the durable suites run against, and where its URL comes from. */
export type TestService = 'postgres' | 'redis';

const SERVICES: Record<TestService, { readonly variable: string; readonly label: string; readonly example: string; readonly port: number }> = {
  postgres: { variable: 'A2A_TEST_POSTGRES_URL', label: 'PostgreSQL', example: 'postgres://postgres@127.0.0.1:5432/test', port: 5432 },
  redis: { variable: 'A2A_TEST_REDIS_URL', label: 'Redis', example: 'redis://127.0.0.1:6379', port: 6379 },
};

/** The test PostgreSQL URL (A2A_TEST_POSTGRES_URL), if set. */
export const POSTGRES_URL = process.env.A2A_TEST_POSTGRES_URL || undefined;
/** The test Redis URL (A2A_TEST_REDIS_URL), if set. */
export const REDIS_URL = process.env.A2A_TEST_REDIS_URL || undefined;

/** True under CI (`CI` set to anything but empty, `0` or `false`): there a missing service is an error. */
export function underCi(env: NodeJS.ProcessEnv = process.env): boolean {
  const ci = env.CI?.trim().toLowerCase();
  return ci !== undefined && ci !== '' && ci !== '0' && ci !== 'false';
}

const warned = new Set<string>();
function notice(service: TestService): void {
  const { variable, label, example } = SERVICES[service];
  if (warned.has(variable)) return;
  warned.add(variable);
  console.warn(
    `\n!!!!!!!!\n!!! ${variable} is not set: the ${label} suites are SKIPPED.\n!!! Set it (e.g. ${example}) to run them; under CI=true they fail instead.\n!!!!!!!!\n`,
  );
}

/** What {@link describeWithServices} does with a suite, given the environment. */
export type SuitePlan =
  | { readonly kind: 'run'; readonly urls: ReadonlyMap<TestService, string> }
  | { readonly kind: 'fail' | 'skip'; readonly missing: readonly TestService[] };

/** Run when every URL is set; else fail under CI, skip otherwise. */
export function planSuite(services: readonly TestService[], env: NodeJS.ProcessEnv = process.env): SuitePlan {
  const urls = new Map<TestService, string>();
  for (const s of services) {
    const url = env[SERVICES[s].variable];
    if (url) urls.set(s, url);
  }
  const missing = services.filter((s) => !urls.has(s));
  if (missing.length === 0) return { kind: 'run', urls };
  return { kind: underCi(env) ? 'fail' : 'skip', missing };
}

/** Opens (and closes) a TCP connection to the service's host and port, or rejects with why not. */
export async function probeService(service: TestService, url: string, timeoutMs = 3000): Promise<void> {
  const { variable, label, port } = SERVICES[service];
  const parsed = new URL(url);
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  if (host === '') return; // a Unix socket: the suite's own connection will tell
  await new Promise<void>((resolve, reject) => {
    const socket = connect({ host, port: Number(parsed.port || port) });
    const fail = (why: string) => {
      socket.destroy();
      reject(new Error(`${label} at ${variable}=${url} is unreachable (${why}): the durable suites cannot run`));
    };
    socket.setTimeout(timeoutMs, () => fail(`no answer within ${timeoutMs} ms`));
    socket.once('error', (error) => fail(error.message));
    socket.once('connect', () => {
      socket.end();
      resolve();
    });
  });
}

/**
 * `describe` for suites that need real services. With every URL set, the suite runs, after a
 * check that each service answers (so an unreachable one fails with a clear message rather
 * than a driver timeout). With a URL missing: a plain local run skips the suite with a loud
 * notice, while under CI the suite fails, because CI must never pass by running nothing.
 */
export function describeWithServices(services: readonly TestService[], name: string, body: () => void): void {
  const plan = planSuite(services);
  if (plan.kind === 'run') {
    describe(name, () => {
      beforeAll(() => Promise.all([...plan.urls].map(([s, url]) => probeService(s, url))));
      body();
    });
  } else if (plan.kind === 'fail') {
    describe(name, () => {
      it('has its services configured', () => {
        throw new Error(`${plan.missing.map((s) => SERVICES[s].variable).join(' and ')} not set under CI: "${name}" cannot run, and CI must not skip it`);
      });
    });
  } else {
    plan.missing.forEach(notice);
    describe.skip(name, body);
  }
}

/** {@link describeWithServices} on PostgreSQL. */
export function describeWithPostgres(name: string, body: () => void): void {
  describeWithServices(['postgres'], name, body);
}

/** {@link describeWithServices} on Redis. */
export function describeWithRedis(name: string, body: () => void): void {
  describeWithServices(['redis'], name, body);
}

/** {@link describeWithServices} on both. */
export function describeWithPostgresAndRedis(name: string, body: () => void): void {
  describeWithServices(['postgres', 'redis'], name, body);
}

/** A name no other run uses: letters, digits and _ (valid as a schema and in keys). */
export function uniqueName(stem: string): string {
  return `${stem}_${process.pid}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
}
