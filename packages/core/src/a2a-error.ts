import { clipInput } from '@a2a-polyglot/model';
import { A2AErrorCode } from './error-code.js';
import { ERROR_TABLE } from './error-table.js';

/** One `google.rpc.BadRequest.FieldViolation`: which field was wrong and why. */
export interface FieldViolation {
  readonly field: string;
  readonly description: string;
}

/** Options of {@link A2AError}. */
export interface A2AErrorOptions {
  /** The underlying failure; logged, never sent to clients. */
  readonly cause?: unknown;
  /** Extra `ErrorInfo.metadata` (for example `{ taskId }`); values must be strings. */
  readonly metadata?: Readonly<Record<string, string>>;
  /** Per-field problems for validation errors (`google.rpc.BadRequest`). */
  readonly fieldViolations?: readonly FieldViolation[];
}

const A2A_ERROR_BRAND = Symbol.for('a2a-polyglot.A2AError');

/**
 * The single error type of the project. The core throws it, every binding maps it through
 * {@link ERROR_TABLE}, and clients rebuild it from the wire, so `err.code` means the same
 * thing whatever binding carried it.
 */
export class A2AError extends Error {
  readonly code: A2AErrorCode;
  readonly metadata: Readonly<Record<string, string>>;
  readonly fieldViolations: readonly FieldViolation[];

  constructor(code: A2AErrorCode, message?: string, options: A2AErrorOptions = {}) {
    super(message ?? ERROR_TABLE[code].message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'A2AError';
    this.code = code;
    this.metadata = options.metadata ?? {};
    this.fieldViolations = options.fieldViolations ?? [];
    Object.defineProperty(this, A2A_ERROR_BRAND, { value: true });
  }

  /** The `ErrorInfo.reason` for this error (UPPER_SNAKE, e.g. `TASK_NOT_FOUND`). */
  get reason(): string {
    return this.code;
  }

  /** Works across duplicated copies of the package (brand check instead of prototype chain). */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[A2A_ERROR_BRAND] === true;
  }

  /**
   * Converts anything thrown into an A2AError. Unknown failures become `Internal` with a
   * generic message: their text may hold internals, so it stays in `cause` for the logs.
   */
  static from(error: unknown): A2AError {
    if (error instanceof A2AError) return error;
    if (isAbortError(error)) return new A2AError(A2AErrorCode.DeadlineExceeded, 'The operation was aborted', { cause: error });
    return new A2AError(A2AErrorCode.Internal, undefined, { cause: error });
  }
}

function isAbortError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && ((error as Error).name === 'AbortError' || (error as Error).name === 'TimeoutError');
}

/** Shorthand constructors for the errors the core raises most. */
export const errors = {
  /** The id is the client's: quoted as a prefix when long ({@link clipInput}), in the message and the metadata. */
  taskNotFound: (taskId: string) => {
    const id = clipInput(taskId);
    return new A2AError(A2AErrorCode.TaskNotFound, `Task ${id} not found`, { metadata: { taskId: id } });
  },
  invalidParams: (message: string, fieldViolations: readonly FieldViolation[] = []) => new A2AError(A2AErrorCode.InvalidParams, message, { fieldViolations }),
  unsupported: (message: string) => new A2AError(A2AErrorCode.UnsupportedOperation, message),
};
