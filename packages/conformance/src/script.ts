/**
 * The step vocabulary of the scripted conformance executor. A script travels inside the
 * request (`SendMessageRequest.metadata.script`), so a scenario states what the agent does
 * in the same data that states what the client sends: no per-scenario agent code exists.
 */

/** One artifact chunk as a script states it (`artifactId` defaults to `artifact-<step index>`). */
export interface ScriptArtifact {
  readonly artifactId?: string;
  readonly name?: string;
  readonly text?: string;
  readonly data?: unknown;
  readonly append?: boolean;
  readonly lastChunk?: boolean;
}

/**
 * One step. Exactly one key per object:
 * - `submit`: create the task now (SUBMITTED) without another report.
 * - `working` / `requireInput` / `requireAuth` / `complete` / `fail` / `reject`: a status
 *   update; a string becomes the status message, `true` means no message.
 * - `artifact`: stream one artifact chunk.
 * - `reply`: answer with a message and no task.
 * - `echo`: stream an artifact (id = the given string) whose text is the incoming message text.
 * - `sleepMs`: wait (aborted by cancel).
 * - `gate`: block until the test opens the named gate (aborted by cancel).
 * - `waitForCancel`: block until the task is canceled (or the server shuts down).
 * - `throw`: throw an Error with this message (the core fails the task).
 * - `onCancelReportCanceled`: no effect where it stands; declares that the agent's cancel hook
 *   reports CANCELED itself (the a2a-python pattern), with this status message (`true`: none).
 *   The hook reads it from the script of the context it is given: the running message's, or,
 *   for a task idle in an interrupted state, the CancelTask request's `metadata.script`.
 */
export type ScriptStep =
  | { readonly submit: true }
  | { readonly working: string | true }
  | { readonly requireInput: string }
  | { readonly requireAuth: string }
  | { readonly complete: string | true }
  | { readonly fail: string | true }
  | { readonly reject: string | true }
  | { readonly artifact: ScriptArtifact }
  | { readonly reply: string }
  | { readonly echo: string }
  | { readonly sleepMs: number }
  | { readonly gate: string }
  | { readonly waitForCancel: true }
  | { readonly throw: string }
  | { readonly onCancelReportCanceled: string | true };

/** The key of every step kind, for validation and documentation. */
export const SCRIPT_STEP_KINDS = [
  'submit',
  'working',
  'requireInput',
  'requireAuth',
  'complete',
  'fail',
  'reject',
  'artifact',
  'reply',
  'echo',
  'sleepMs',
  'gate',
  'waitForCancel',
  'throw',
  'onCancelReportCanceled',
] as const;

/** The name of one step kind. */
export type ScriptStepKind = (typeof SCRIPT_STEP_KINDS)[number];

const ARTIFACT_KEYS = new Set(['artifactId', 'name', 'text', 'data', 'append', 'lastChunk']);

/**
 * Checks a script from request metadata and returns it typed. A malformed script is a bug in
 * a scenario, so the message says exactly which step is wrong (the executor throws it, the
 * task fails, and the scenario's expectation shows the failure).
 */
export function parseScript(value: unknown): ScriptStep[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new Error('metadata.script must be an array of steps');
  return value.map((step, i) => parseStep(step, i));
}

function parseStep(step: unknown, index: number): ScriptStep {
  const where = `metadata.script[${index}]`;
  if (typeof step !== 'object' || step === null || Array.isArray(step)) throw new Error(`${where} must be an object`);
  const keys = Object.keys(step);
  if (keys.length !== 1) throw new Error(`${where} must have exactly one key, got ${keys.join(', ') || 'none'}`);
  const kind = keys[0] as ScriptStepKind;
  const value = (step as Record<string, unknown>)[kind];
  const fail = (expected: string) => new Error(`${where}.${kind} must be ${expected}`);
  switch (kind) {
    case 'submit':
    case 'waitForCancel':
      if (value !== true) throw fail('true');
      break;
    case 'working':
    case 'onCancelReportCanceled':
    case 'complete':
    case 'fail':
    case 'reject':
      if (value !== true && typeof value !== 'string') throw fail('a string or true');
      break;
    case 'requireInput':
    case 'requireAuth':
    case 'reply':
    case 'echo':
    case 'gate':
    case 'throw':
      if (typeof value !== 'string') throw fail('a string');
      break;
    case 'sleepMs':
      if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) throw fail('a number >= 0');
      break;
    case 'artifact':
      if (typeof value !== 'object' || value === null || Array.isArray(value)) throw fail('an object');
      for (const k of Object.keys(value)) if (!ARTIFACT_KEYS.has(k)) throw new Error(`${where}.artifact has unknown key ${k}`);
      break;
    default:
      throw new Error(`${where} has unknown step kind ${String(kind)}; known: ${SCRIPT_STEP_KINDS.join(', ')}`);
  }
  return step as ScriptStep;
}
