/**
 * The live task view: a timeline of the task's events (sequence number, time, state badge,
 * what happened), the artifacts assembled as they stream, the agent's question answered in
 * place, cancel, and resubscribe. Resumes after a cut are the client's (TaskStream); the view
 * shows each one with its resume point, and flags any event seen twice (there should be none).
 */
import { A2AError, isInterrupted, isTerminal } from '@a2a-polyglot/core';
import { eventText, partsText, textMessage, type Client, type ClientEvent, type ResumeInfo, type TaskStream } from '@a2a-polyglot/client';
import { Role, TaskState, type Message, type SendMessageResponse, type Task } from '@a2a-polyglot/model';
import { ArtifactAssembler } from './artifacts.js';
import { setBadge, stateBadge } from './badges.js';
import { copyButton } from './copy.js';
import { byId, clock, fill, h, type Child } from './dom.js';
import { agentPartView, partView } from './parts-view.js';

/** The one task shown, and the stream (if any) that feeds it. */
export class TaskView {
  private readonly section = byId('task');
  private readonly head = byId('task-head');
  private readonly timeline = byId<HTMLOListElement>('timeline');
  private readonly artifactsBox = byId('artifacts');
  private readonly answerBox = byId('answer');
  private readonly question = byId('question');
  private artifacts = new ArtifactAssembler();
  private taskId: string | undefined;
  private contextId: string | undefined;
  private state: TaskState | undefined;
  private seen = new Set<number>();
  private streaming: AbortController | undefined;
  private pendingResume: ResumeInfo | undefined;
  private readonly headParts: TaskHead;

  constructor(
    private readonly client: () => Client,
    private readonly onContext: (contextId: string) => void,
    /** The task appeared or a stream of it ended: the task list may be stale. */
    private readonly onTaskChanged: () => void,
  ) {
    this.headParts = {
      id: h('code', { id: 'task-id' }, '—'),
      badge: stateBadge(undefined),
      continueButton: h(
        'button',
        { type: 'button', class: 'quiet', title: 'Send the next message in this context', onclick: () => this.contextId && this.onContext(this.contextId) },
        'Continue this context',
      ),
      cancel: h('button', { type: 'button', id: 'cancel', onclick: () => void this.cancel() }, 'Cancel task'),
      resubscribe: h('button', { type: 'button', id: 'resubscribe', onclick: () => void this.resubscribe() }, 'Resubscribe'),
      streamState: h('span', { class: 'muted', id: 'stream-state' }, 'idle'),
    };
    const p = this.headParts;
    fill(
      this.head,
      h(
        'span',
        {},
        'Task ',
        p.id,
        ' ',
        copyButton(() => this.taskId ?? '', 'Copy the task id'),
      ),
      p.badge,
      p.continueButton,
      p.cancel,
      p.resubscribe,
      p.streamState,
    );
    byId<HTMLFormElement>('answer-form').addEventListener('submit', (event) => {
      event.preventDefault();
      const input = byId<HTMLInputElement>('answer-text');
      void this.answer(input.value);
      input.value = '';
    });
  }

  /** Starts a fresh view (a new send, or a task opened from the list). */
  reset(): void {
    this.streaming?.abort();
    this.streaming = undefined;
    this.artifacts = new ArtifactAssembler();
    this.taskId = this.contextId = this.state = undefined;
    this.seen = new Set();
    this.pendingResume = undefined;
    this.timeline.replaceChildren();
    this.artifactsBox.replaceChildren();
    this.answerBox.hidden = true;
    this.section.hidden = false;
    this.renderHead();
  }

  /** Follows a stream to its end, rendering each event; a second call stops the first stream. */
  async follow(open: (options: { signal: AbortSignal; onResume: (info: ResumeInfo) => void }) => TaskStream): Promise<void> {
    this.streaming?.abort();
    const controller = new AbortController();
    this.streaming = controller;
    this.renderHead();
    const stream = open({ signal: controller.signal, onResume: (info) => this.resuming(info) });
    try {
      for await (const item of stream) {
        if (controller.signal.aborted) return;
        this.record(item);
      }
      if (!controller.signal.aborted)
        this.note(`Stream ended (${stream.end ?? 'closed'})${stream.resumes ? ` after ${stream.resumes} resume(s)` : ''}.`, 'end');
    } catch (error) {
      if (!controller.signal.aborted) this.note(`Stream failed: ${describe(error)}`, 'error');
    } finally {
      if (this.streaming === controller) this.streaming = undefined;
      this.renderHead();
      this.onTaskChanged();
    }
  }

  /** A blocking SendMessage's answer: the task (or message) as one snapshot. */
  showResponse(response: SendMessageResponse): void {
    const payload = response.payload;
    if (payload?.$case === 'task') this.record({ seq: undefined, event: { payload: { $case: 'task', value: payload.value } } });
    else if (payload?.$case === 'message') this.record({ seq: undefined, event: { payload: { $case: 'message', value: payload.value } } });
  }

  /** Opens a task by id: its snapshot, then live events while it is not finished. */
  async open(id: string): Promise<void> {
    this.reset();
    let task: Task;
    try {
      task = await this.client().getTask({ id, historyLength: 20 });
    } catch (error) {
      this.note(`Could not read task ${id}: ${describe(error)}`, 'error');
      return;
    }
    this.record({ seq: undefined, event: { payload: { $case: 'task', value: task } } });
    for (const message of task.history)
      this.timeline.append(
        h(
          'li',
          { class: 'note history' },
          h('span', {}, `${message.role === Role.ROLE_USER ? 'User' : 'Agent'}:`),
          ...message.parts.map(message.role === Role.ROLE_USER ? (p) => partView(p) : agentPartView),
        ),
      );
    if (this.state !== undefined && !isTerminal(this.state) && !isInterrupted(this.state)) await this.resubscribe();
  }

  /** Shows an error of a send (nothing reached the task). */
  failed(what: string, error: unknown): void {
    this.section.hidden = false;
    this.note(`${what} failed: ${describe(error)}`, 'error');
  }

  /** Shows the message just sent, its parts as the agent will see them (files downloadable, data as a tree). */
  sent(message: Message): void {
    this.timeline.append(h('li', { class: 'note sent' }, h('span', {}, 'You sent:'), ...message.parts.map((p) => partView(p))));
  }

  /** Adds a plain note to the timeline. */
  note(text: string, kind: 'end' | 'error' | 'resume' | 'history' | 'info'): void {
    this.timeline.append(h('li', { class: `note ${kind}` }, text));
    this.followTail();
  }

  private async resubscribe(): Promise<void> {
    const id = this.taskId;
    if (!id) return;
    const after = this.seen.size ? Math.max(...this.seen) : undefined;
    this.note(`Subscribing to the task${after !== undefined ? ` (events after seq ${after} are new)` : ''}…`, 'info');
    await this.follow((options) => this.client().subscribeToTask({ id }, options));
  }

  private async cancel(): Promise<void> {
    const id = this.taskId;
    if (!id) return;
    try {
      const task = await this.client().cancelTask({ id });
      this.note('Cancel requested.', 'info');
      if (!this.streaming) this.record({ seq: undefined, event: { payload: { $case: 'task', value: task } } });
    } catch (error) {
      this.note(`Cancel failed: ${describe(error)}`, 'error');
    }
  }

  private async answer(text: string): Promise<void> {
    if (!this.taskId || text.trim() === '') return;
    this.answerBox.hidden = true;
    const message = textMessage(text, { taskId: this.taskId, contextId: this.contextId });
    this.note(`You answered: ${text}`, 'info');
    const streaming = byId<HTMLInputElement>('streaming').checked;
    if (streaming) return this.follow((options) => this.client().sendStreamingMessage({ message }, options));
    try {
      this.showResponse(await this.client().sendMessage({ message }));
    } catch (error) {
      this.failed('The answer', error);
    }
  }

  private resuming(info: ResumeInfo): void {
    this.pendingResume = info;
    const point = info.afterSeq !== undefined ? `after seq ${info.afterSeq}` : 'from a fresh snapshot (the server does not number events)';
    this.note(`Connection lost (${info.cause.message}). Resubscribing ${point}, attempt ${info.attempt}, in ${info.delayMs} ms…`, 'resume');
  }

  private record({ seq, event }: ClientEvent): void {
    if (this.pendingResume) {
      this.note(`Resumed: the next event is ${seq !== undefined ? `seq ${seq}` : 'unnumbered'}.`, 'resume');
      this.pendingResume = undefined;
    }
    if (seq !== undefined) {
      if (this.seen.has(seq)) this.note(`Duplicate event seq ${seq}`, 'error');
      this.seen.add(seq);
    }
    const payload = event.payload;
    let what: Child[] = [];
    switch (payload?.$case) {
      case 'task': {
        const task = payload.value;
        this.adopt(task.id, task.contextId, task.status?.state);
        this.artifacts.snapshot(task, !isTerminal(task.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED));
        what = [
          'Task ',
          stateBadge(task.status?.state),
          ` ${partsText(task.status?.message?.parts)}`,
          task.artifacts.length ? ` · ${task.artifacts.length} artifact(s)` : '',
        ];
        this.statusQuestion(task.status?.state, partsText(task.status?.message?.parts));
        break;
      }
      case 'statusUpdate': {
        const update = payload.value;
        this.adopt(update.taskId, update.contextId, update.status?.state);
        what = ['Status ', stateBadge(update.status?.state), ` ${eventText(event)}`];
        this.statusQuestion(update.status?.state, eventText(event));
        break;
      }
      case 'artifactUpdate': {
        const update = payload.value;
        this.adopt(update.taskId, update.contextId, undefined);
        const artifact = this.artifacts.apply(update);
        const flags = [update.append ? 'append' : 'new', update.lastChunk ? 'last chunk' : ''].filter(Boolean).join(', ');
        what = [`Artifact ${artifact?.name || artifact?.artifactId || ''} (${flags}) `, h('code', {}, JSON.stringify(eventText(event)))];
        break;
      }
      case 'message':
        this.adopt(payload.value.taskId || undefined, payload.value.contextId || undefined, undefined);
        what = ['Message: ', eventText(event)];
        break;
      default:
        what = ['(empty event)'];
    }
    this.timeline.append(
      h(
        'li',
        { class: 'event', 'data-seq': seq ?? '', 'data-kind': payload?.$case ?? '' },
        h('span', { class: 'seq' }, seq !== undefined ? `#${seq}` : '—'),
        h('span', { class: 'time' }, clock(new Date())),
        h('span', { class: 'what' }, ...what),
      ),
    );
    this.followTail();
    this.renderArtifacts();
    this.renderHead();
  }

  /** Keeps the newest event in sight inside the timeline (only the list scrolls, never the window). */
  private followTail(): void {
    this.timeline.scrollTop = this.timeline.scrollHeight;
  }

  private adopt(taskId: string | undefined, contextId: string | undefined, state: TaskState | undefined): void {
    if (taskId && this.taskId === undefined) queueMicrotask(this.onTaskChanged);
    if (taskId) this.taskId = taskId;
    if (contextId) this.contextId = contextId;
    if (state !== undefined) this.state = state;
  }

  private statusQuestion(state: TaskState | undefined, text: string): void {
    const asking = state === TaskState.TASK_STATE_INPUT_REQUIRED || state === TaskState.TASK_STATE_AUTH_REQUIRED;
    this.answerBox.hidden = !asking;
    if (asking) {
      this.question.textContent = text || 'The agent needs more input.';
      byId<HTMLInputElement>('answer-text').focus();
    }
  }

  private renderArtifacts(): void {
    const list = this.artifacts.list();
    if (list.length === 0) {
      fill(this.artifactsBox, h('p', { class: 'muted' }, 'None yet.'));
      return;
    }
    fill(
      this.artifactsBox,
      ...list.map((a) =>
        h(
          'div',
          { class: 'artifact', 'data-artifact-id': a.artifactId, 'data-complete': String(a.complete) },
          h('strong', {}, a.name || a.artifactId),
          h(
            'span',
            { class: 'muted' },
            ` · ${a.chunks} chunk(s) · ${a.complete ? 'complete' : this.state !== undefined && isTerminal(this.state) ? 'incomplete: the task ended' : 'streaming…'}`,
          ),
          ...a.parts.map(agentPartView),
        ),
      ),
    );
  }

  /**
   * Updates the head in place. Its elements are made once (see {@link TaskHead}): rebuilt on
   * every event, a button under a press that lasts longer than the gap between two events
   * would be a different element at mouse-up, and the click would never fire.
   */
  private renderHead(): void {
    const state = this.state;
    const finished = state !== undefined && isTerminal(state);
    const head = this.headParts;
    head.id.textContent = this.taskId ?? '—';
    setBadge(head.badge, state);
    head.continueButton.hidden = !this.contextId;
    head.cancel.disabled = !this.taskId || finished;
    head.resubscribe.disabled = !this.taskId || finished || this.streaming !== undefined;
    head.streamState.textContent = this.streaming ? 'streaming' : 'idle';
  }
}

/** The task head's elements, made once and updated in place by `renderHead`. */
interface TaskHead {
  readonly id: HTMLElement;
  readonly badge: HTMLElement;
  readonly continueButton: HTMLButtonElement;
  readonly cancel: HTMLButtonElement;
  readonly resubscribe: HTMLButtonElement;
  readonly streamState: HTMLElement;
}

/** An error as one line: the A2A code and message. */
export function describe(error: unknown): string {
  const e = A2AError.from(error);
  return `${e.code}: ${e.message}`;
}
