import { Message, Role, SendMessageConfiguration, SendMessageRequest } from '@a2a-polyglot/model';

/** What a test varies in {@link userSend}'s request; everything else is the protobuf default. */
export interface UserSendOptions {
  /** The task the message continues; '' (the default) starts a new one. */
  readonly taskId?: string;
  /** The context the message belongs to; '' (the default) lets the server pick. */
  readonly contextId?: string;
  /** The request's configuration (return immediately, history length, push config...); none by default. */
  readonly configuration?: Partial<SendMessageConfiguration>;
  /** Any other field of the message (extensions, metadata, a fixed messageId...), applied last. */
  readonly message?: Partial<Message>;
}

/**
 * A SendMessage request with one user text part and a fresh message id, as a binding's decoder
 * hands it to the core. Every package's tests built this by hand, field by field; one builder
 * keeps them from drifting when the model gains a field. The request is plain data: a test
 * that asserts on a field sets it here in `options`, where the reader sees it.
 */
export function userSend(text: string, options: UserSendOptions = {}): SendMessageRequest {
  return SendMessageRequest.fromPartial({
    message: Message.fromPartial({
      messageId: crypto.randomUUID(),
      contextId: options.contextId ?? '',
      taskId: options.taskId ?? '',
      role: Role.ROLE_USER,
      parts: [{ content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: '' }],
      ...options.message,
    }),
    configuration: options.configuration === undefined ? undefined : SendMessageConfiguration.fromPartial(options.configuration),
  });
}
