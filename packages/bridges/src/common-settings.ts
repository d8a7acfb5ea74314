import { field, type SettingsSchema } from './settings.js';

/** Settings every bridge has: the time limits that keep a task from hanging, and the reply shape. */
export interface CommonSettings {
  /** Until the upstream's response headers arrive; for non-streaming calls, until the whole body has. */
  readonly timeoutMs: number;
  /** Longest silence allowed inside an upstream event stream (keep-alive comments count as activity). */
  readonly idleTimeoutMs: number;
  /** Upper bound for one upstream run, however lively; 0 = none. */
  readonly maxRunMs: number;
  /**
   * What a non-streaming SendMessage gets: `message` (the OpenClaw.NET contract: one agent
   * message, no task) or `task` (a completed task with the `text-delta` artifact).
   */
  readonly replyMode: 'message' | 'task';
}

/** The schema of {@link CommonSettings}; bridges spread it into their own schema. */
export const COMMON_FIELDS: SettingsSchema<CommonSettings> = {
  timeoutMs: field.int(1, 3_600_000, {
    description: 'ms until the upstream answers (headers; the whole body for non-streaming calls)',
    env: ['A2A_BRIDGE_TIMEOUT_MS'],
    default: 60_000,
  }),
  idleTimeoutMs: field.int(1, 3_600_000, {
    description: 'ms of silence tolerated inside an upstream event stream',
    env: ['A2A_BRIDGE_IDLE_TIMEOUT_MS'],
    default: 90_000,
  }),
  maxRunMs: field.int(0, 24 * 3_600_000, {
    description: 'ms one upstream run may take in total; 0 = no limit',
    env: ['A2A_BRIDGE_MAX_RUN_MS'],
    default: 30 * 60_000,
  }),
  replyMode: field.oneOf(['message', 'task'], {
    description: 'answer to a non-streaming send: one agent message, or a task',
    env: ['A2A_BRIDGE_REPLY_MODE'],
    default: 'message',
  }),
};
