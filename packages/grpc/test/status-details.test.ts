import { A2AError, A2AErrorCode, ALL_ERROR_CODES, ERROR_TABLE } from '@a2a-polyglot/core';
import { BinaryWriter, WireType } from '@bufbuild/protobuf/wire';
import { Metadata } from '@grpc/grpc-js';
import {
  BAD_REQUEST_TYPE_URL,
  decodeAny,
  decodeBadRequest,
  decodeErrorInfo,
  decodeStatus,
  encodeAny,
  encodeBadRequest,
  encodeErrorInfo,
  encodeStatus,
  ERROR_INFO_TYPE_URL,
  fromGrpcError,
  STATUS_DETAILS_KEY,
  toGrpcError,
} from '../src/index.js';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

describe('google.rpc.Status / Any / ErrorInfo / BadRequest codecs', () => {
  it('encodes ErrorInfo with the standard field numbers (known bytes)', () => {
    const bytes = encodeErrorInfo({ reason: 'R', domain: 'd', metadata: { k: 'v' } });
    // 0a 01 'R' | 12 01 'd' | 1a 06 (0a 01 'k' 12 01 'v')
    expect(hex(bytes)).toBe('0a0152' + '120164' + '1a06' + '0a016b' + '120176');
  });

  it('encodes Status with code, message and Any details (known bytes)', () => {
    const bytes = encodeStatus({ code: 5, message: 'x', details: [{ typeUrl: 't', value: new Uint8Array([1]) }] });
    // 08 05 | 12 01 'x' | 1a 06 (0a 01 't' 12 01 01)
    expect(hex(bytes)).toBe('0805' + '120178' + '1a06' + '0a0174' + '120101');
  });

  it('round-trips all four messages', () => {
    const info = { reason: 'TASK_NOT_FOUND', domain: 'a2a-protocol.org', metadata: { taskId: 't-1', b: 'ü' } };
    expect(decodeErrorInfo(encodeErrorInfo(info))).toEqual(info);
    const bad = { fieldViolations: [{ field: 'message.parts', description: 'required' }, { field: 'id', description: '' }] };
    expect(decodeBadRequest(encodeBadRequest(bad))).toEqual(bad);
    const any = { typeUrl: ERROR_INFO_TYPE_URL, value: encodeErrorInfo(info) };
    expect(decodeAny(encodeAny(any))).toEqual({ typeUrl: any.typeUrl, value: any.value });
    const status = { code: 9, message: 'nope', details: [any, { typeUrl: BAD_REQUEST_TYPE_URL, value: encodeBadRequest(bad) }] };
    const decoded = decodeStatus(encodeStatus(status));
    expect(decoded.code).toBe(9);
    expect(decoded.message).toBe('nope');
    expect(decoded.details.map((d) => d.typeUrl)).toEqual([ERROR_INFO_TYPE_URL, BAD_REQUEST_TYPE_URL]);
    expect(decodeBadRequest(decoded.details[1]!.value)).toEqual(bad);
  });

  it('skips unknown fields and reads negative codes', () => {
    const w = new BinaryWriter();
    w.tag(1, WireType.Varint).int32(-1);
    w.tag(99, WireType.LengthDelimited).string('future field');
    w.tag(2, WireType.LengthDelimited).string('m');
    w.tag(100, WireType.Varint).int32(7);
    expect(decodeStatus(w.finish())).toEqual({ code: -1, message: 'm', details: [] });
  });

  it('omits proto3 defaults and decodes empty input to defaults', () => {
    expect(encodeStatus({ code: 0, message: '', details: [] })).toHaveLength(0);
    expect(decodeErrorInfo(new Uint8Array())).toEqual({ reason: '', domain: '', metadata: {} });
  });

  it('throws on truncated input instead of returning garbage', () => {
    const bytes = encodeStatus({ code: 3, message: 'a long enough message', details: [] });
    expect(() => decodeStatus(bytes.subarray(0, bytes.length - 3))).toThrow();
  });
});

describe('A2AError <-> gRPC status', () => {
  it.each(ALL_ERROR_CODES)('%s: status code from ERROR_TABLE, ErrorInfo in the trailer, and back', (code) => {
    const error = new A2AError(code, `failed: ${code}`, { metadata: { taskId: 't' } });
    const status = toGrpcError(error);
    expect(status.code).toBe(ERROR_TABLE[code].grpc);
    expect(status.details).toBe(`failed: ${code}`);
    const rpc = decodeStatus(status.metadata.get(STATUS_DETAILS_KEY)[0] as Buffer);
    expect(rpc.code).toBe(ERROR_TABLE[code].grpc);
    const info = decodeErrorInfo(rpc.details[0]!.value);
    expect(info).toEqual({ reason: code, domain: ERROR_TABLE[code].a2a ? 'a2a-protocol.org' : 'a2a-polyglot', metadata: { taskId: 't' } });
    const back = fromGrpcError(status);
    expect(back.code).toBe(code);
    expect(back.message).toBe(`failed: ${code}`);
    expect(back.metadata).toEqual({ taskId: 't' });
  });

  it('carries field violations as a BadRequest detail', () => {
    const error = new A2AError(A2AErrorCode.InvalidParams, 'bad', { fieldViolations: [{ field: 'id', description: 'required' }] });
    const back = fromGrpcError(toGrpcError(error));
    expect(back.fieldViolations).toEqual([{ field: 'id', description: 'required' }]);
  });

  it('falls back to the status code without details, and recognises grpc-js size limits', () => {
    expect(fromGrpcError({ code: 5, details: 'gone', metadata: new Metadata() }).code).toBe(A2AErrorCode.TaskNotFound);
    expect(fromGrpcError({ code: 8, details: 'Received message larger than max (10 vs. 5)', metadata: new Metadata() }).code).toBe(A2AErrorCode.PayloadTooLarge);
    expect(fromGrpcError({ code: 8, details: 'slow down', metadata: new Metadata() }).code).toBe(A2AErrorCode.ResourceExhausted);
    const garbage = new Metadata();
    garbage.set(STATUS_DETAILS_KEY, Buffer.from([0x0a, 0xff]));
    expect(fromGrpcError({ code: 14, details: 'x', metadata: garbage }).code).toBe(A2AErrorCode.Unavailable);
  });
});
