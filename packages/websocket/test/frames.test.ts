import type { IncomingMessage } from 'node:http';
import { checkHandshake, websocketInterface, websocketUrl, WEBSOCKET_BINDING_URI } from '../src/index.js';
import { parseInbound, streamEndFrame } from '../src/frames.js';
import { TokenBucket } from '../src/rate-limit.js';

function upgrade(headers: Record<string, string>, url = '/a2a/ws'): IncomingMessage {
  return { headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v])), url } as unknown as IncomingMessage;
}

describe('checkHandshake', () => {
  it('requires the a2a.v1 subprotocol', () => {
    expect(checkHandshake(upgrade({}))).toMatchObject({ ok: false, status: 400 });
    expect(checkHandshake(upgrade({ 'sec-websocket-protocol': 'chat, a2a.v2' }))).toMatchObject({ ok: false, status: 400 });
    expect(checkHandshake(upgrade({ 'sec-websocket-protocol': 'a2a.v1' }))).toMatchObject({ ok: true });
  });

  it('turns the auth subprotocol into a bearer Authorization, headers winning, and drops handshake headers', () => {
    const token = Buffer.from('tok.en-1').toString('base64url');
    const fromToken = checkHandshake(upgrade({ 'sec-websocket-protocol': `a2a.v1, a2a.auth.${token}`, 'sec-websocket-key': 'k', 'x-api-key': 'k2' }));
    expect(fromToken).toEqual({ ok: true, headers: { authorization: 'Bearer tok.en-1', 'x-api-key': 'k2' } });
    const headerWins = checkHandshake(upgrade({ 'sec-websocket-protocol': `a2a.v1, a2a.auth.${token}`, authorization: 'Bearer other' }));
    expect(headerWins).toMatchObject({ ok: true, headers: { authorization: 'Bearer other' } });
  });

  it('rejects malformed or repeated tokens', () => {
    const bad = ['a2a.auth.', 'a2a.auth.***', `a2a.auth.${Buffer.from('has space').toString('base64url')}`];
    for (const p of bad) expect(checkHandshake(upgrade({ 'sec-websocket-protocol': `a2a.v1, ${p}` }))).toMatchObject({ ok: false, status: 400 });
    expect(checkHandshake(upgrade({ 'sec-websocket-protocol': 'a2a.v1, a2a.auth.YQ, a2a.auth.Yg' }))).toMatchObject({ ok: false, status: 400 });
  });

  it('reads ?A2A-Version= when the header is absent; the header wins', () => {
    expect(checkHandshake(upgrade({ 'sec-websocket-protocol': 'a2a.v1' }, '/a2a/ws?A2A-Version=1.0'))).toMatchObject({
      ok: true,
      headers: { 'a2a-version': '1.0' },
    });
    expect(checkHandshake(upgrade({ 'sec-websocket-protocol': 'a2a.v1', 'a2a-version': '0.3' }, '/a2a/ws?A2A-Version=1.0'))).toMatchObject({
      ok: true,
      headers: { 'a2a-version': '0.3' },
    });
  });

  it('checks Origin only when allowedOrigins is set', () => {
    const req = upgrade({ 'sec-websocket-protocol': 'a2a.v1', origin: 'https://evil.test' });
    expect(checkHandshake(req)).toMatchObject({ ok: true });
    expect(checkHandshake(req, ['https://app.test'])).toMatchObject({ ok: false, status: 403 });
    expect(checkHandshake(upgrade({ 'sec-websocket-protocol': 'a2a.v1', origin: 'https://app.test' }), ['https://app.test'])).toMatchObject({ ok: true });
  });
});

describe('parseInbound', () => {
  it('classifies requests, cancelStream and bad frames', () => {
    expect(parseInbound('{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"id":"t"}}')).toMatchObject({ kind: 'request', id: 1, serviceParams: {} });
    expect(parseInbound('{"jsonrpc":"2.0","method":"GetTask"}')).toMatchObject({ kind: 'request', id: undefined });
    expect(parseInbound('{"jsonrpc":"2.0","id":"s1","cancelStream":true}')).toEqual({ kind: 'cancelStream', id: 's1' });
    expect(parseInbound('{"id":1,"cancelStream":false}')).toMatchObject({ kind: 'invalid', id: 1 });
    expect(parseInbound('{"cancelStream":true}')).toMatchObject({ kind: 'invalid', id: null });
    expect(parseInbound('{"id":1,"method":"X","cancelStream":true}')).toMatchObject({ kind: 'invalid', id: 1 });
    expect(parseInbound('nope')).toMatchObject({ kind: 'invalid', id: null, error: { code: 'PARSE_ERROR' } });
    expect(parseInbound('[]')).toMatchObject({ kind: 'invalid', error: { code: 'INVALID_REQUEST' } });
    expect(parseInbound('7')).toMatchObject({ kind: 'invalid', error: { code: 'INVALID_REQUEST' } });
  });

  it('reads serviceParams (lower-cased) and resumeAfterSeq from the envelope', () => {
    const frame = parseInbound(
      '{"jsonrpc":"2.0","id":2,"method":"SubscribeToTask","params":{"id":"t"},"serviceParams":{"A2A-Version":"1.0"},"resumeAfterSeq":7}',
    );
    expect(frame).toMatchObject({ kind: 'request', serviceParams: { 'a2a-version': '1.0' }, resumeAfterSeq: 7 });
    expect(parseInbound('{"id":2,"method":"X","resumeAfterSeq":1.5}')).toMatchObject({ kind: 'invalid', error: { code: 'INVALID_PARAMS' } });
    expect(parseInbound('{"id":2,"method":"X","resumeAfterSeq":"7"}')).toMatchObject({
      kind: 'invalid',
      id: 2,
      error: { code: 'INVALID_PARAMS', fieldViolations: [{ field: 'resumeAfterSeq' }] },
    });
    expect(parseInbound('{"id":2,"method":"X","serviceParams":[]}')).toMatchObject({ kind: 'invalid', error: { code: 'INVALID_REQUEST' } });
    expect(parseInbound('{"id":2,"method":"X","serviceParams":{"Sec-WebSocket-Key":"x"}}')).toMatchObject({ kind: 'invalid' });
  });

  it('builds streamEnd frames without absent members', () => {
    expect(streamEndFrame(3, 'done', undefined, undefined)).toEqual({ jsonrpc: '2.0', id: 3, streamEnd: true, reason: 'done' });
    expect(streamEndFrame('a', 'canceled', 'TASK_STATE_WORKING', 2)).toEqual({
      jsonrpc: '2.0',
      id: 'a',
      streamEnd: true,
      reason: 'canceled',
      state: 'TASK_STATE_WORKING',
      lastSeq: 2,
    });
  });
});

describe('card helpers', () => {
  it('derives ws:// and wss:// URLs from the public base URL', () => {
    expect(websocketUrl('http://127.0.0.1:8080', '/a2a/ws')).toBe('ws://127.0.0.1:8080/a2a/ws');
    expect(websocketUrl('https://agents.example.com/x/', '/a2a/ws')).toBe('wss://agents.example.com/x/a2a/ws');
    expect(websocketInterface('https://a.test', '/ws')).toEqual({
      url: 'wss://a.test/ws',
      protocolBinding: WEBSOCKET_BINDING_URI,
      protocolVersion: '1.0',
      tenant: '',
    });
  });
});

describe('TokenBucket', () => {
  it('allows the burst, then the sustained rate', () => {
    let now = 0;
    const bucket = new TokenBucket(10, 3, () => now);
    expect([bucket.take(), bucket.take(), bucket.take(), bucket.take()]).toEqual([true, true, true, false]);
    now += 100; // one token back
    expect([bucket.take(), bucket.take()]).toEqual([true, false]);
  });
});
