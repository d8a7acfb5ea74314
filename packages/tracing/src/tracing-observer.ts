import {
  OPERATIONS,
  type CallContext,
  type CallObserver,
  type ObservedTask,
  type OperationName,
  type OperationObservation,
  type OperationOutcome,
  type TaskRunObservation,
} from '@a2a-polyglot/core';
import { TaskState } from '@a2a-polyglot/model';
import { context, SpanKind, SpanStatusCode, trace, type Attributes, type Tracer } from '@opentelemetry/api';
import { A2A_ATTRIBUTES as A, operationSpanName, requestIds, resultIds, TASK_RUN_SPAN, TASK_STATE_EVENT, type TaskIds } from './attributes.js';
import { callerContext } from './trace-context.js';

/**
 * A CallObserver that traces: one SERVER span per A2A operation, named and attributed the
 * same way on every binding (they all report through core's OPERATIONS table), continuing
 * the caller's W3C trace context; one span per agent run, child of the operation that
 * started it; an event per task state change on whichever span is active (the run's while
 * the agent runs, the operation's for what a call does outside a run). Operations and runs execute inside their span's
 * context, so store calls, push deliveries and upstream requests nest under them.
 *
 * A streaming operation's span lasts until its stream ends, so its state events land on it.
 */
export function tracingObserver(tracer: Tracer): CallObserver {
  return {
    operationStarted(operation: OperationName, ctx: CallContext, request: unknown): OperationObservation {
      const ids = requestIds(operation, request);
      const attributes: Attributes = {
        'rpc.system': 'a2a',
        'rpc.service': 'lf.a2a.v1.A2AService',
        'rpc.method': operation,
        [A.operation]: operation,
        [A.binding]: ctx.binding,
        [A.protocolVersion]: ctx.wireVersion ?? '1.0',
      };
      setIds(attributes, { ...ids, tenant: ctx.pathTenant || ids.tenant });
      const parent = callerContext(ctx);
      const span = tracer.startSpan(operationSpanName(operation), { kind: SpanKind.SERVER, attributes }, parent);
      const active = trace.setSpan(parent, span);
      const streaming = OPERATIONS[operation].kind === 'stream';
      return {
        run: (call) => context.with(active, call),
        done(outcome: OperationOutcome, result?: unknown) {
          const found: Attributes = { [A.outcome]: outcome };
          setIds(found, resultIds(result), ids);
          span.setAttributes(found);
          if (outcome !== 'ok') {
            span.setAttribute(A.errorReason, outcome);
            span.setStatus({ code: SpanStatusCode.ERROR, message: outcome });
          }
          if (!streaming || outcome !== 'ok') span.end();
        },
        streamOpened: () => () => span.end(),
      };
    },

    taskRunStarted(task: ObservedTask): TaskRunObservation {
      const span = tracer.startSpan(TASK_RUN_SPAN, { kind: SpanKind.INTERNAL, attributes: taskAttributes(task) });
      // Tag the operation span that started the run with the ids the core just chose.
      trace.getActiveSpan()?.setAttributes(taskAttributes(task));
      const active = trace.setSpan(context.active(), span);
      return {
        run: (call) => context.with(active, call),
        ended(failure?: unknown) {
          if (failure !== undefined) {
            span.recordException(failure instanceof Error ? failure : String(failure));
            span.setStatus({ code: SpanStatusCode.ERROR, message: failure instanceof Error ? failure.message : String(failure) });
          }
          span.end();
        },
      };
    },

    taskStateEntered(state: TaskState, task: ObservedTask) {
      const span = trace.getActiveSpan();
      if (!span) return;
      span.addEvent(TASK_STATE_EVENT, { [A.taskState]: TaskState[state] ?? String(state), [A.taskId]: task.taskId });
    },
  };
}

function taskAttributes(task: ObservedTask): Attributes {
  const attributes: Attributes = {};
  setIds(attributes, task);
  return attributes;
}

/** Sets the ids `found` names (non-empty), else those of `fallback`. */
function setIds(attributes: Attributes, found: TaskIds, fallback: TaskIds = {}): void {
  const taskId = found.taskId ?? fallback.taskId;
  const contextId = found.contextId ?? fallback.contextId;
  const tenant = found.tenant ?? fallback.tenant;
  if (taskId) attributes[A.taskId] = taskId;
  if (contextId) attributes[A.contextId] = contextId;
  if (tenant) attributes[A.tenant] = tenant;
}
