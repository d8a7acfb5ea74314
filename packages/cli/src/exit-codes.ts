/**
 * Exit codes of `a2a`, one per outcome a script may want to branch on. Documented in the
 * README; tests assert them.
 */
export const EXIT = {
  /** Done: the task completed, the agent answered with a message, or the command succeeded. */
  ok: 0,
  /** The task ended failed, canceled or rejected. */
  taskUnsuccessful: 1,
  /** Bad command line. */
  usage: 2,
  /** The agent needs input and there is no terminal to ask (and no `--input` left). The question was printed. */
  inputRequired: 3,
  /** The agent needs authentication (TASK_STATE_AUTH_REQUIRED). */
  authRequired: 4,
  /** The agent answered with an A2A error (its reason and code were printed). */
  agentError: 5,
  /** The agent could not be reached, stopped answering, or the stream was cut for good. */
  unreachable: 6,
  /** Not an A2A agent: no or malformed agent card, or answers that are not A2A. */
  notA2A: 7,
  /** Interrupted (Ctrl-C). */
  interrupted: 130,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];
