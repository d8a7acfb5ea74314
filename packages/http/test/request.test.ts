import { PassThrough } from 'node:stream';
import type { IncomingMessage } from 'node:http';
import { A2AErrorCode } from '@a2a-polyglot/core';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { errorHeaders, isJsonContentType, linkSignals, mediaType, nodeCallContext, readJsonBody } from '../src/index.js';

function fakeRequest(headers: Record<string, string>, chunks: string[] = [], url = '/'): IncomingMessage {
  const stream = new PassThrough();
  Object.assign(stream, { headers, url });
  setImmediate(() => {
    for (const c of chunks) stream.write(c);
    stream.end();
  });
  return stream as unknown as IncomingMessage;
}

describe('readJsonBody', () => {
  it('parses JSON and reads an empty body as undefined', async () => {
    expect(await readJsonBody(fakeRequest({}, ['{"a":', '1}']), 100)).toEqual({ a: 1 });
    expect(await readJsonBody(fakeRequest({}, ['  ']), 100)).toBeUndefined();
  });

  it('rejects malformed JSON as ParseError', async () => {
    await expect(readJsonBody(fakeRequest({}, ['{nope']), 100)).rejects.toMatchObject({ code: A2AErrorCode.ParseError });
  });

  it('rejects a Content-Length over the limit before reading', async () => {
    const req = fakeRequest({ 'content-length': '101' });
    await expect(readJsonBody(req, 100)).rejects.toMatchObject({ code: A2AErrorCode.PayloadTooLarge });
  });

  it('stops reading as soon as a body without Content-Length crosses the limit', async () => {
    await expect(readJsonBody(fakeRequest({}, ['x'.repeat(60), 'x'.repeat(60), 'x'.repeat(1000)]), 100)).rejects.toMatchObject({
      code: A2AErrorCode.PayloadTooLarge,
    });
  });
});

describe('headers and call context', () => {
  it('accepts JSON media types with parameters, and a missing content type', () => {
    const req = (ct?: string) => ({ headers: ct === undefined ? {} : { 'content-type': ct } }) as IncomingMessage;
    expect(isJsonContentType(req('application/json'))).toBe(true);
    expect(isJsonContentType(req('Application/A2A+JSON; charset=utf-8'))).toBe(true);
    expect(isJsonContentType(req(undefined))).toBe(true);
    expect(isJsonContentType(req('text/plain'))).toBe(false);
    expect(mediaType(' text/html ; q=1')).toBe('text/html');
  });

  it('adds the challenge to a 401 and closes the connection after a 413, nothing else', () => {
    expect(errorHeaders(401)).toEqual({ 'www-authenticate': 'Bearer' });
    expect(errorHeaders(413)).toEqual({ connection: 'close' });
    expect(errorHeaders(400)).toEqual({});
    expect(errorHeaders(500)).toEqual({});
  });

  it('fills a2a-version from the query parameter only when the header is absent', () => {
    const fromQuery = nodeCallContext('JSONRPC', { headers: {}, url: '/rpc?A2A-Version=1.0' } as IncomingMessage);
    expect(fromQuery.header('A2A-Version')).toBe('1.0');
    const header = nodeCallContext('JSONRPC', { headers: { 'a2a-version': '0.3' }, url: '/rpc?A2A-Version=1.0' } as unknown as IncomingMessage);
    expect(header.header('a2a-version')).toBe('0.3');
    const tenant = nodeCallContext('HTTP+JSON', { headers: {}, url: '/' } as IncomingMessage, { pathTenant: 't' });
    expect(tenant.pathTenant).toBe('t');
    expect(tenant.binding).toBe('HTTP+JSON');
  });
});

describe('linkSignals', () => {
  it('aborts when any source aborts and detaches on dispose', () => {
    const a = new AbortController();
    const b = new AbortController();
    const linked = linkSignals(a.signal, undefined, b.signal);
    expect(linked.signal.aborted).toBe(false);
    b.abort();
    expect(linked.signal.aborted).toBe(true);
    const again = linkSignals(a.signal);
    again.dispose();
    a.abort();
    expect(again.signal.aborted).toBe(false);
    expect(linkSignals(b.signal).signal.aborted).toBe(true);
  });

  it('lets a long-lived source (server shutdown) carry one link per open stream without a leak warning', () => {
    const script = join(__dirname, '..', '..', '..', 'scripts', 'run-ts.js');
    const out = execFileSync(process.execPath, [script, join(__dirname, 'fixtures', 'many-links.ts')], { encoding: 'utf8' });
    expect(JSON.parse(out)).toEqual({ warnings: [], aborted: true });
  });
});
