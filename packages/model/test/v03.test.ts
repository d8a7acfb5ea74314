import { V03A2AServiceService } from '../src/grpc.js';
import { parseProtoJson, ProtoJsonError, validateProtoJson } from '../src/index.js';
import { SendMessageRequest, Task, TaskState } from '../src/v03.js';

describe('the v0.3 proto (package a2a.v1)', () => {
  it('serves the 10 v0.3 RPCs under /a2a.v1.A2AService/', () => {
    expect(Object.values(V03A2AServiceService).map((m) => `${m.path}${m.responseStream ? ' (stream)' : ''}`).sort()).toEqual([
      '/a2a.v1.A2AService/CancelTask',
      '/a2a.v1.A2AService/CreateTaskPushNotificationConfig',
      '/a2a.v1.A2AService/DeleteTaskPushNotificationConfig',
      '/a2a.v1.A2AService/GetAgentCard',
      '/a2a.v1.A2AService/GetTask',
      '/a2a.v1.A2AService/GetTaskPushNotificationConfig',
      '/a2a.v1.A2AService/ListTaskPushNotificationConfig',
      '/a2a.v1.A2AService/SendMessage',
      '/a2a.v1.A2AService/SendStreamingMessage (stream)',
      '/a2a.v1.A2AService/TaskSubscription (stream)',
    ]);
  });

  it('uses the official field numbers (Message.content = 5, TaskStatus.update = 2, FilePart bytes = 2)', () => {
    const bytes = SendMessageRequest.encode(
      SendMessageRequest.fromJSON({ message: { messageId: 'm', role: 'ROLE_USER', content: [{ file: { fileWithBytes: 'AQ==' } }] } }),
    ).finish();
    // request(1) { message_id(1) "m", role(4) 1, content(5) { file(2) { file_with_bytes(2) 0x01 } } }
    expect(Buffer.from(bytes).toString('hex')).toBe('0a0c' + '0a016d' + '2001' + '2a05' + '1203' + '1201' + '01');
    expect(Task.toJSON(Task.fromPartial({ id: 't', status: { state: TaskState.TASK_STATE_CANCELLED, update: { messageId: 's' } } }))).toEqual({
      id: 't',
      status: { state: 'TASK_STATE_CANCELLED', message: { messageId: 's' } },
    });
  });

  it('is validated strictly by the same ProtoJSON validator: v1.0 shapes are unknown fields here', () => {
    expect(validateProtoJson('a2a.v1.SendMessageRequest', { message: { messageId: 'm', role: 'ROLE_USER', content: [{ text: 'x' }] }, configuration: { blocking: true } })).toEqual([]);
    const violations = validateProtoJson('a2a.v1.SendMessageRequest', { message: { messageId: 'm', role: 'ROLE_USER', parts: [{ text: 'x' }] } });
    expect(violations.map((v) => v.field)).toEqual(['message.parts']);
    expect(() => parseProtoJson('a2a.v1.Task', Task, { status: { state: 'TASK_STATE_CANCELED' } })).toThrow(ProtoJsonError);
  });
});
