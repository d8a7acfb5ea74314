/**
 * Every failure the core can report, as one closed set.
 *
 * The A2A-specific members are the error types of the A2A v1.0 specification (§3.6); the
 * generic members cover protocol-level failures (bad JSON, unknown method, auth, limits)
 * that every binding must also report in its own terms. The string value of each member is
 * the `google.rpc.ErrorInfo.reason` sent on the wire, so logs and wire agree.
 */
export enum A2AErrorCode {
  // ---- A2A-specific errors (spec §3.6) ----
  /** The task id does not exist (or is not visible to the caller). */
  TaskNotFound = 'TASK_NOT_FOUND',
  /** The task is terminal or otherwise cannot be canceled. */
  TaskNotCancelable = 'TASK_NOT_CANCELABLE',
  /** The agent card does not declare `capabilities.pushNotifications`. */
  PushNotificationNotSupported = 'PUSH_NOTIFICATION_NOT_SUPPORTED',
  /** The operation is not available here: capability off, or the task is terminal. */
  UnsupportedOperation = 'UNSUPPORTED_OPERATION',
  /** None of the requested media types can be produced or consumed. */
  ContentTypeNotSupported = 'CONTENT_TYPE_NOT_SUPPORTED',
  /** The agent produced something the protocol does not allow. */
  InvalidAgentResponse = 'INVALID_AGENT_RESPONSE',
  /** `capabilities.extendedAgentCard` is on but no extended card is configured. */
  ExtendedAgentCardNotConfigured = 'EXTENDED_AGENT_CARD_NOT_CONFIGURED',
  /** The agent requires an extension the client did not activate. */
  ExtensionSupportRequired = 'EXTENSION_SUPPORT_REQUIRED',
  /** The `A2A-Version` the client asked for (or implied by omitting it) is not served. */
  VersionNotSupported = 'VERSION_NOT_SUPPORTED',
  /**
   * A2A 1.1 (draft, experimental): a follow-up's `ifGenerationMatch` is not the task's current
   * generation (another writer got there first). The client re-reads the task and decides.
   */
  TaskGenerationMismatch = 'TASK_GENERATION_MISMATCH',

  // ---- Generic protocol errors ----
  /** The request body is not valid JSON (or not decodable protobuf). */
  ParseError = 'PARSE_ERROR',
  /** The envelope is malformed (not a JSON-RPC request, wrong content type, ...). */
  InvalidRequest = 'INVALID_REQUEST',
  /** No such method or path. */
  MethodNotFound = 'METHOD_NOT_FOUND',
  /** The parameters do not match the request message: unknown field, wrong type, missing value. */
  InvalidParams = 'INVALID_PARAMS',
  /** A bug or an unexpected failure on our side; details are logged, never sent. */
  Internal = 'INTERNAL',
  /** No or invalid credentials. */
  Unauthenticated = 'UNAUTHENTICATED',
  /** Valid credentials that may not do this. */
  PermissionDenied = 'PERMISSION_DENIED',
  /** The request body or message exceeds the configured size limit. */
  PayloadTooLarge = 'PAYLOAD_TOO_LARGE',
  /** Too many open streams, sessions or operations at once for this peer (a concurrency cap). */
  ResourceExhausted = 'RESOURCE_EXHAUSTED',
  /**
   * Too many requests in a time window from this client address or identity (a rate limit).
   * Kept apart from ResourceExhausted because the cure differs: waiting (ErrorInfo metadata
   * `retryAfterSeconds`, HTTP `Retry-After`) rather than closing something.
   */
  RateLimited = 'RATE_LIMITED',
  /** A dependency (store, event log) is down, or the server is shutting down. Retry later. */
  Unavailable = 'UNAVAILABLE',
  /** The caller's deadline passed before the work finished. */
  DeadlineExceeded = 'DEADLINE_EXCEEDED',
}

/** All codes, in declaration order (handy for exhaustive table tests). */
export const ALL_ERROR_CODES: readonly A2AErrorCode[] = Object.values(A2AErrorCode);
