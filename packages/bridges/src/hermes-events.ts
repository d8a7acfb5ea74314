import type { ExecutionContext } from '@a2a-polyglot/core';

/**
 * Hermes runs-API event vocabulary. Names are the upstream code's; the aliases are spellings
 * some integration docs (and older or neighbouring Hermes streams) use, accepted so a bridge
 * written against either keeps working.
 */
export const HERMES_EVENT_ALIASES: Readonly<Record<string, string>> = {
  'tool.call': 'tool.started',
  'tool.result': 'tool.completed',
  'tool.failed': 'tool.completed',
  'approval.required': 'approval.request',
  'hermes.approval_required': 'approval.request',
  'assistant.delta': 'message.delta',
  'run.canceled': 'run.cancelled',
  error: 'run.failed',
};

/** The canonical name of an event (aliases resolved). */
export function canonicalEvent(name: string): string {
  return HERMES_EVENT_ALIASES[name] ?? name;
}

/** The approval choices Hermes knows, in its order. */
export const APPROVAL_CHOICES = ['once', 'session', 'always', 'deny'] as const;

/** What a paused run asks: the part of `approval.request` a human needs to decide. */
export interface ApprovalRequest {
  readonly requestId: string | undefined;
  readonly choices: readonly string[];
  readonly description: string | undefined;
  readonly command: string | undefined;
}

/** Reads an `approval.request` event (tolerant: missing fields stay undefined). */
export function approvalFrom(event: Readonly<Record<string, unknown>>): ApprovalRequest {
  const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
  const choices = Array.isArray(event.choices) ? event.choices.filter((c): c is string => typeof c === 'string') : [];
  return {
    requestId: str(event.request_id),
    choices: choices.length > 0 ? choices : [...APPROVAL_CHOICES],
    description: str(event.description),
    command: str(event.command),
  };
}

/** The question an A2A client sees while the task is INPUT_REQUIRED. */
export function approvalQuestion(approval: ApprovalRequest, note?: string): string {
  return [
    ...(note ? [note] : []),
    `Hermes asks for approval${approval.description ? `: ${approval.description}` : ''}`,
    ...(approval.command ? [`Command: ${approval.command}`] : []),
    `Answer with one of: ${approval.choices.join(', ')}`,
  ].join('\n');
}

const YES = new Set(['approve', 'approved', 'allow', 'yes', 'y', 'ok']);
const NO = new Set(['no', 'n', 'reject', 'rejected', 'denied']);

/**
 * The choice in a follow-up message: a data part `{choice}` first, else the first word of the
 * text; `approve`/`allow`/`yes` mean `once` and `no`/`reject` mean `deny` (as Hermes itself
 * accepts). Undefined when the answer is not one of the offered choices.
 */
export function choiceFrom(ctx: Pick<ExecutionContext, 'message' | 'text'>, offered: readonly string[]): string | undefined {
  let raw: unknown;
  for (const part of ctx.message.parts) {
    if (part.content?.$case === 'data' && typeof part.content.value === 'object' && part.content.value !== null) {
      raw = (part.content.value as Record<string, unknown>).choice;
      if (raw !== undefined) break;
    }
  }
  if (typeof raw !== 'string') raw = ctx.text.trim().split(/\s+/)[0] ?? '';
  const word = (raw as string).toLowerCase().replace(/[.!]+$/, '');
  const choice = YES.has(word) ? 'once' : NO.has(word) ? 'deny' : word;
  return offered.includes(choice) ? choice : undefined;
}

/** The machine-readable half of an approval question (a data part of the status message). */
export function approvalData(runId: string, approval: ApprovalRequest): Record<string, unknown> {
  return {
    type: 'hermes.approval',
    runId,
    choices: [...approval.choices],
    ...(approval.requestId && { requestId: approval.requestId }),
    ...(approval.description && { description: approval.description }),
    ...(approval.command && { command: approval.command }),
  };
}

/** Status-update metadata of a pause: the choices, where clients look for machine data. */
export function approvalMetadata(runId: string, approval: ApprovalRequest): Record<string, unknown> {
  return { approval: { runId, choices: [...approval.choices], ...(approval.requestId && { requestId: approval.requestId }) } };
}
