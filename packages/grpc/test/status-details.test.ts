import { A2AError, A2AErrorCode, BAD_REQUEST_TYPE, ERROR_INFO_TYPE, GRPC_STATUS_DETAILS_KEY } from '@a2a-polyglot/core';
import { BadRequest, ErrorInfo, Status } from '@a2a-polyglot/model/rpc';
import { BinaryWriter, WireType } from '@bufbuild/protobuf/wire';
import { toGrpcError } from '../src/index.js';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

/** The trailer bytes of an error as sent. */
const trailerOf = (error: A2AError) => toGrpcError(error).metadata.get(GRPC_STATUS_DETAILS_KEY)[0] as Buffer;

describe('google.rpc.Status / Any / ErrorInfo / BadRequest (generated from proto/google/rpc)', () => {
  it('encodes ErrorInfo with the standard field numbers (known bytes)', () => {
    const bytes = ErrorInfo.encode(ErrorInfo.fromPartial({ reason: 'R', domain: 'd', metadata: { k: 'v' } })).finish();
    // 0a 01 'R' | 12 01 'd' | 1a 06 (0a 01 'k' 12 01 'v')
    expect(hex(bytes)).toBe('0a0152' + '120164' + '1a06' + '0a016b' + '120176');
  });

  it('encodes Status with code, message and Any details (known bytes)', () => {
    const bytes = Status.encode({ code: 5, message: 'x', details: [{ typeUrl: 't', value: new Uint8Array([1]) }] }).finish();
    // 08 05 | 12 01 'x' | 1a 06 (0a 01 't' 12 01 01)
    expect(hex(bytes)).toBe('0805' + '120178' + '1a06' + '0a0174' + '120101');
  });

  it('skips unknown fields and reads negative codes', () => {
    const w = new BinaryWriter();
    w.tag(1, WireType.Varint).int32(-1);
    w.tag(99, WireType.LengthDelimited).string('future field');
    w.tag(2, WireType.LengthDelimited).string('m');
    w.tag(100, WireType.Varint).int32(7);
    expect(Status.decode(w.finish())).toEqual({ code: -1, message: 'm', details: [] });
  });

  it('throws on truncated input instead of returning garbage', () => {
    const bytes = Status.encode({ code: 3, message: 'a long enough message', details: [] }).finish();
    expect(() => Status.decode(bytes.subarray(0, bytes.length - 3))).toThrow();
  });

  /**
   * Trailers the hand-written encoder this package used before the generated codecs produced
   * (recorded from it): the generated ones must send the same bytes, so peers see no change.
   */
  const HAND_ENCODED = {
    invalidParams:
      '0803121e496e76616c696420706172616d65746572733a20322070726f626c656d731a6e0a28747970652e676f6f676c65617069732e636f6d2f676f6f676c652e7270632e4572726f72496e666f12420a0e494e56414c49445f504152414d53120c6132612d706f6c79676c6f741a070a05616c7068611a0d0a067461736b49641203742d311a0a0a047a6574611202c3bc1a4e0a29747970652e676f6f676c65617069732e636f6d2f676f6f676c652e7270632e4261645265717565737412210a190a0d6d6573736167652e7061727473120872657175697265640a040a026964',
    taskNotFound:
      '080512105461736b2078206e6f7420666f756e641a5b0a28747970652e676f6f676c65617069732e636f6d2f676f6f676c652e7270632e4572726f72496e666f122f0a0e5441534b5f4e4f545f464f554e4412106132612d70726f746f636f6c2e6f72671a0b0a067461736b4964120178',
  };

  it('sends the same bytes as the former hand encoder, and they decode to the same details', () => {
    const invalid = new A2AError(A2AErrorCode.InvalidParams, 'Invalid parameters: 2 problems', {
      metadata: { taskId: 't-1', zeta: 'ü', alpha: '' },
      fieldViolations: [
        { field: 'message.parts', description: 'required' },
        { field: 'id', description: '' },
      ],
    });
    const notFound = new A2AError(A2AErrorCode.TaskNotFound, 'Task x not found', { metadata: { taskId: 'x' } });
    expect(hex(trailerOf(invalid))).toBe(HAND_ENCODED.invalidParams);
    expect(hex(trailerOf(notFound))).toBe(HAND_ENCODED.taskNotFound);

    const old = Status.decode(Buffer.from(HAND_ENCODED.invalidParams, 'hex'));
    const now = Status.decode(trailerOf(invalid));
    expect(now).toEqual(old);
    expect(now.details.map((d) => d.typeUrl)).toEqual([ERROR_INFO_TYPE, BAD_REQUEST_TYPE]);
    expect(ErrorInfo.decode(now.details[0]!.value)).toEqual({
      reason: 'INVALID_PARAMS',
      domain: 'a2a-polyglot',
      metadata: { alpha: '', taskId: 't-1', zeta: 'ü' },
    });
    expect(BadRequest.decode(now.details[1]!.value).fieldViolations.map(({ field, description }) => ({ field, description }))).toEqual([
      { field: 'message.parts', description: 'required' },
      { field: 'id', description: '' },
    ]);
  });
});
