import { clipInput } from './quote-input.js';

/**
 * One problem found in a ProtoJSON document.
 *
 * Same shape as `google.rpc.BadRequest.FieldViolation`, so the transports can put the list
 * straight into an error's details. `field` is a path into the input as the client wrote it
 * (its keys, camelCase or snake_case): `message.parts[0].text`, map entries as
 * `securitySchemes["oauth"]`; the empty string means the document itself.
 */
export interface FieldViolation {
  field: string;
  description: string;
}

/** Thrown by {@link ValidationContext.add} once the violation budget is spent; caught by validateProtoJson. */
export const TOO_MANY = Symbol('too many violations');

/** The running state of one validation: its limits and the violations found so far. */
export class ValidationContext {
  readonly violations: FieldViolation[] = [];
  constructor(
    readonly maxDepth: number,
    readonly maxViolations: number,
    readonly ignoreUnknownFields: boolean,
  ) {}

  /** Records a violation; throws {@link TOO_MANY} (after a last "omitted" entry) past the budget. */
  add(field: string, description: string): void {
    if (this.violations.length >= this.maxViolations) {
      this.violations.push({ field: '', description: 'too many violations; the remaining ones were not reported' });
      throw TOO_MANY;
    }
    this.violations.push({ field, description });
  }
}

/**
 * The path of member `key` under `path` (`a.b`; just `key` at the document root). A long key
 * (a client's own member name) is shortened ({@link clipInput}): the path goes into the error twice.
 */
export function joinPath(path: string, key: string): string {
  const name = clipInput(key);
  return path === '' ? name : `${path}.${name}`;
}
