/**
 * A call's logger context (core's `lazyChild`) over the executor's real pino logger: a written
 * line carries every context field and pino's redaction still applies, to the context and to
 * the line's own fields; a call that writes nothing (or only below the level) asks pino for no
 * child at all.
 */
import { lazyChild, requestLogger, type Logger } from '@a2a-polyglot/core';
import { REDACTED } from '@a2a-polyglot/bridges';
import pino from 'pino';
import { createLogger, REDACTED_FIELDS } from '../src/index.js';
import { REDACTED_FIELD_NAMES } from '../src/redact-fields.js';

function pinoLines(level: 'debug' | 'info'): { logger: Logger; lines: Array<Record<string, any>>; children: () => number } {
  const raw: string[] = [];
  const logger = createLogger(level, { write: (line: string) => void raw.push(line) });
  let made = 0;
  const child = logger.child.bind(logger);
  logger.child = (bindings) => {
    made += 1;
    return child(bindings);
  };
  return {
    logger,
    get lines() {
      return raw.map((l) => JSON.parse(l) as Record<string, any>);
    },
    children: () => made,
  };
}

/** The context the bindings and the core build for one call: binding and reqId, then operation, traceId and taskId. */
function callLogger(base: Logger): Logger {
  const request = requestLogger(base, 'JSONRPC', (name) => (name === 'x-request-id' ? 'req-ctx-1' : undefined))!;
  return lazyChild(request, { operation: 'SendMessage', traceId: '0af7651916cd43dd8448eb211c80319c' }).child({ taskId: 'task-1' });
}

it('a written line carries binding, reqId, operation, traceId and taskId, with credentials redacted', () => {
  const log = pinoLines('info');
  const logger = callLogger(log.logger).child({ token: 'ctx-secret' });
  logger.warn({ request: { headers: { authorization: 'Bearer line-secret' } }, apiKey: 'k-secret', attempt: 2 }, 'upstream refused');
  logger.error(Object.assign(new Error('boom'), { password: 'err-secret' }));
  const [warn, error] = log.lines;
  expect(warn).toMatchObject({
    level: 'warn',
    msg: 'upstream refused',
    binding: 'JSONRPC',
    reqId: 'req-ctx-1',
    operation: 'SendMessage',
    traceId: '0af7651916cd43dd8448eb211c80319c',
    taskId: 'task-1',
    token: REDACTED,
    apiKey: REDACTED,
    attempt: 2,
    request: { headers: { authorization: REDACTED } },
  });
  // An Error as the fields is filed under `err` (message and stack kept), as pino does.
  expect(error).toMatchObject({ level: 'error', taskId: 'task-1', err: { message: 'boom', password: REDACTED } });
  expect(error!.err.stack).toContain('boom');
  expect(JSON.stringify(log.lines)).not.toMatch(/secret/);
});

it('makes no pino child for a call, whether it writes a line or not', () => {
  const log = pinoLines('info');
  const logger = callLogger(log.logger);
  logger.debug({ code: 'TaskNotFound' }, 'JSON-RPC call rejected');
  expect(log.lines).toHaveLength(0);
  logger.info('task completed');
  expect(log.lines).toHaveLength(1);
  expect(log.children()).toBe(0);
});

it('a debug line is written, with its context, when the level is debug', () => {
  const log = pinoLines('debug');
  callLogger(log.logger).debug({ code: 'TaskNotFound' }, 'JSON-RPC call rejected');
  expect(log.lines).toEqual([
    expect.objectContaining({ level: 'debug', code: 'TaskNotFound', operation: 'SendMessage', reqId: 'req-ctx-1', taskId: 'task-1' }),
  ]);
});

it('a later field of the same name replaces the earlier one (one key per line, not two)', () => {
  const log = pinoLines('info');
  lazyChild(log.logger, { taskId: 'a' }).child({ taskId: 'b' }).info({ state: 'completed' }, 'task completed');
  const raw = JSON.stringify(log.lines[0]);
  expect(log.lines[0]).toMatchObject({ taskId: 'b', state: 'completed' });
  expect(raw.match(/taskId/g)).toHaveLength(1);
});

describe('the credential rule', () => {
  /** What pino's own redact with REDACTED_FIELDS' paths writes: the rule as pino states it. */
  function viaPinoRedact(fields: object): Record<string, unknown> {
    const raw: string[] = [];
    pino({ redact: { paths: [...REDACTED_FIELDS], censor: REDACTED }, base: undefined, timestamp: false }, { write: (l: string) => void raw.push(l) }).info(
      fields,
      'm',
    );
    const { level: _l, ...rest } = JSON.parse(raw[0]!);
    return rest;
  }
  function viaExecutor(fields: object): Record<string, unknown> {
    const raw: string[] = [];
    createLogger('info', { write: (l: string) => void raw.push(l) }).info(fields, 'm');
    const { level: _l, time: _t, pid: _p, hostname: _h, ...rest } = JSON.parse(raw[0]!);
    return rest;
  }

  it('redacts exactly what pino redact with REDACTED_FIELDS redacts, at every depth, without touching the caller objects', () => {
    const shapes: object[] = [];
    for (const name of REDACTED_FIELD_NAMES) {
      shapes.push({ [name]: 's0' }, { a: { [name]: 's1' } }, { a: { b: { [name]: 's2' } } }, { a: { b: { c: { [name]: 's3' } } } });
      shapes.push({ a: { b: { c: { d: { [name]: 'deep-kept' } } } } }, { list: [{ [name]: 's-item' }, 'plain'] }, { [name.toUpperCase()]: 'other-case-kept' });
    }
    shapes.push({ headers: { authorization: 'x', accept: 'json' }, n: 1, nil: null, ok: true });
    for (const shape of shapes) {
      const before = JSON.stringify(shape);
      expect(viaExecutor(shape)).toEqual(viaPinoRedact(shape));
      expect(JSON.stringify(shape)).toBe(before);
    }
  });

  it('redacts inside an error and keeps it an error (type, message, stack)', () => {
    const err = Object.assign(new Error('upstream 401'), { request: { headers: { authorization: 'Bearer e-secret' } } });
    const line = viaExecutor({ err });
    expect(line).toMatchObject({ err: { type: 'Error', message: 'upstream 401', request: { headers: { authorization: REDACTED } } } });
    expect((line.err as { stack: string }).stack).toContain('upstream 401');
    expect(err.request.headers.authorization).toBe('Bearer e-secret');
  });

  it('redacts the bindings of a pino child too', () => {
    const raw: string[] = [];
    createLogger('info', { write: (l: string) => void raw.push(l) })
      .child({ token: 'child-secret', reqId: 'r' })
      .info('m');
    expect(JSON.parse(raw[0]!)).toMatchObject({ token: REDACTED, reqId: 'r' });
  });
});
