import { A2AError, A2AErrorCode, callContext, negotiateVersion, RequestHandler } from '@a2a-polyglot/core';
import { testAgentCard } from '@a2a-polyglot/testing';
import { checkVersion } from '../src/request-validation';

describe('negotiateVersion (A2A-Version, spec §3.6.2)', () => {
  it.each([
    [undefined, '0.3'],
    ['', '0.3'],
    ['  ', '0.3'],
    ['0.3', '0.3'],
    ['0.3.0', '0.3'],
    ['1.0', '1.0'],
    ['1.0.1', '1.0'],
    [' 1.0 ', '1.0'],
    // The experimental 1.1 is carried by the 1.0 codecs (the core decides whether it is served).
    ['1.1', '1.0'],
    ['1.1.0', '1.0'],
  ])('reads %p as %s', (raw, version) => {
    expect(negotiateVersion(raw)).toBe(version);
  });

  it.each(['2.0', '1', '1.2', '0.2', 'abc', '1.0-rc', '01.x'])('refuses %p with VersionNotSupported naming the served versions', (raw) => {
    let thrown: unknown;
    try {
      negotiateVersion(raw);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(A2AError);
    expect(thrown).toMatchObject({ code: A2AErrorCode.VersionNotSupported, metadata: { supportedVersions: '1.0,0.3' } });
  });
});

describe('checkVersion: the named version must match the codec the binding used', () => {
  it('accepts a v1.0 call naming 1.0 and a v0.3 call naming 0.3 or nothing', () => {
    expect(() => checkVersion(callContext('JSONRPC', { 'a2a-version': '1.0' }))).not.toThrow();
    expect(() => checkVersion(callContext('JSONRPC', {}, { wireVersion: '0.3' }))).not.toThrow();
    expect(() => checkVersion(callContext('JSONRPC', { 'a2a-version': '0.3.0' }, { wireVersion: '0.3' }))).not.toThrow();
  });

  it('refuses a v1.0 call without the header, with a hint to send it', () => {
    expect(() => checkVersion(callContext('JSONRPC', {}))).toThrow(/send A2A-Version: 1.0/);
  });

  it('refuses a v0.3 call that names 1.0', () => {
    expect(() => checkVersion(callContext('JSONRPC', { 'a2a-version': '1.0' }, { wireVersion: '0.3' }))).toThrow(
      expect.objectContaining({ code: A2AErrorCode.VersionNotSupported }),
    );
  });

  it('serves 1.1 only with experimental11, and only on the 1.0 codecs; says what the call negotiated', () => {
    expect(checkVersion(callContext('JSONRPC', { 'a2a-version': '1.0' }), true)).toBe('1.0');
    expect(checkVersion(callContext('JSONRPC', { 'a2a-version': '1.1' }), true)).toBe('1.1');
    expect(checkVersion(callContext('JSONRPC', { 'a2a-version': ' 1.1.0 ' }), true)).toBe('1.1');
    expect(() => checkVersion(callContext('JSONRPC', { 'a2a-version': '1.1' }))).toThrow(
      expect.objectContaining({ code: A2AErrorCode.VersionNotSupported, message: expect.stringMatching(/not enabled/) }),
    );
    expect(() => checkVersion(callContext('JSONRPC', { 'a2a-version': '1.1' }, { wireVersion: '0.3' }), true)).toThrow(
      /1\.1 was requested, but this is a v0\.3 call/,
    );
  });

  it('is the preamble of every operation', async () => {
    const handler = new RequestHandler({ card: testAgentCard(), executor: { execute: async () => undefined } });
    await expect(
      handler.getTask({ tenant: '', id: 'x', historyLength: undefined }, callContext('IN-PROCESS', {}, { wireVersion: '0.3' })),
    ).rejects.toMatchObject({ code: A2AErrorCode.TaskNotFound });
    await handler.shutdown(0);
  });
});
