/**
 * The executor process with the standard OTEL_* variables exports its spans over OTLP/HTTP:
 * a local receiver stands in for the collector. The batch delay is a minute, so the spans
 * can only arrive because SIGTERM's graceful close flushes the SDK.
 */
import { createServer, type Server } from 'node:http';
import { recordingLogger } from '@a2a-polyglot/testing';
import type { AddressInfo } from 'node:net';
import { diagToLogger, tracesWanted } from '../src/telemetry.js';
import { postJson, rpc, userMessage } from './helpers.js';
import { listeningUrl, spawnExecutor, type ExecutorProcess } from './spawn-executor.js';

/** One OTLP export the receiver got. */
interface Export {
  readonly path: string;
  readonly contentType: string;
  readonly body: Buffer;
}

let receiver: Server;
let endpoint: string;
const exports: Export[] = [];
let executor: ExecutorProcess | undefined;

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      exports.push({ path: req.url ?? '', contentType: String(req.headers['content-type']), body: Buffer.concat(chunks) });
      res.writeHead(200, { 'content-type': String(req.headers['content-type']) }).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});

afterAll(async () => {
  if (executor && executor.process.exitCode === null) executor.process.kill('SIGKILL');
  await new Promise((resolve) => receiver.close(resolve));
});

describe('executor: OTLP export from the OTEL_* variables', () => {
  it('sends the spans of a request to OTEL_EXPORTER_OTLP_ENDPOINT, flushed on SIGTERM', async () => {
    executor = spawnExecutor({
      PORT: '0',
      GRPC_PORT: 'off',
      A2A_DEMO_CHUNK_DELAY_MS: '0',
      OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
      OTEL_BSP_SCHEDULE_DELAY: '60000',
      OTEL_SERVICE_NAME: 'a2a-otlp-test',
    });
    const url = await listeningUrl(executor);
    expect(executor.stdout).toContain('OpenTelemetry traces on');
    const answer = await postJson(`${url}/a2a/rpc`, rpc('SendMessage', { message: userMessage('traced') }), {
      traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
    });
    expect(answer.status).toBe(200);

    executor.process.kill('SIGTERM');
    expect(await executor.exited).toBe(0);
    const traces = exports.filter((e) => e.path === '/v1/traces');
    expect(traces.length).toBeGreaterThan(0);
    expect(traces[0]!.contentType).toBe('application/x-protobuf');
    // Protobuf keeps strings as UTF-8 bytes: the span name, the service name and the caller's trace id are there.
    const body = Buffer.concat(traces.map((t) => t.body));
    expect(body.includes('a2a.SendMessage')).toBe(true);
    expect(body.includes('a2a.task.run')).toBe(true);
    expect(body.includes('a2a-otlp-test')).toBe(true);
    expect(body.includes(Buffer.from('0af7651916cd43dd8448eb211c80319c', 'hex'))).toBe(true);
    // Traces only: no metric or log exports to the collector unless asked for.
    expect(exports.filter((e) => e.path !== '/v1/traces')).toEqual([]);
  });
});

describe('tracesWanted', () => {
  it('is on for an OTLP endpoint or a traces exporter, off otherwise or when disabled', () => {
    expect(tracesWanted({})).toBe(false);
    expect(tracesWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' })).toBe(true);
    expect(tracesWanted({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://127.0.0.1:4318/v1/traces' })).toBe(true);
    expect(tracesWanted({ OTEL_TRACES_EXPORTER: 'console' })).toBe(true);
    expect(tracesWanted({ OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' })).toBe(false);
    expect(tracesWanted({ OTEL_SDK_DISABLED: 'true', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' })).toBe(false);
  });
});

describe('diagToLogger', () => {
  it('turns the SDK warnings and errors into one-line service warnings, and drops the chatter', () => {
    const logger = recordingLogger();
    const diagLogger = diagToLogger(logger);
    diagLogger.error(JSON.stringify({ stack: 'Error: connect ECONNREFUSED 127.0.0.1:9\n    at …', message: 'connect ECONNREFUSED 127.0.0.1:9' }));
    diagLogger.warn('Unrecognized OTEL_TRACES_EXPORTER value: x.');
    diagLogger.info('ignored');
    diagLogger.debug('ignored');
    expect(logger.lines).toEqual([
      { level: 'warn', msg: 'OpenTelemetry: connect ECONNREFUSED 127.0.0.1:9', fields: {} },
      { level: 'warn', msg: 'OpenTelemetry: Unrecognized OTEL_TRACES_EXPORTER value: x.', fields: {} },
    ]);
  });
});
