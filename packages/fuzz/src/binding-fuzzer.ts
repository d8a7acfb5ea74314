import type fc from 'fast-check';
import type { HeavyCase } from './heavy-inputs.js';
import type { Finding } from './oracle.js';
import type { FuzzTarget } from './target.js';

/**
 * One binding's fuzzer: how it draws an input, sends it to the target and judges the answer.
 * `known` are ids of tasks that exist on the target, so inputs reach past "not found".
 */
export interface BindingFuzzer<Input> {
  readonly name: string;
  inputs(known: readonly string[]): fc.Arbitrary<Input>;
  /**
   * A heavy send of the resource oracle as this binding carries it (built when it is sent, so
   * a long run holds one at a time). Its answer is also judged by size against the request.
   */
  heavy(c: HeavyCase): Input;
  /** Sends `input` and returns the findings its answer gives (none when the answer is fine). */
  run(input: Input, target: FuzzTarget): Promise<Finding[]>;
}

/** Header values as a client can send them (visible ASCII): fetch refuses others before sending. */
export function headerSafe(value: string): string {
  return value.replace(/[^\x20-\x7e]/g, '');
}
