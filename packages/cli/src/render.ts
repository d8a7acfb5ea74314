import { Role, TaskState, type AgentCard, type Message, type Task } from '@a2a-polyglot/model';
import { partsText } from '@a2a-polyglot/client';
import { liveStatus, type Io } from './io.js';

/** `TASK_STATE_INPUT_REQUIRED` → `input-required`. */
export function stateName(state: TaskState | undefined): string {
  const name = TaskState[state ?? TaskState.TASK_STATE_UNSPECIFIED] ?? 'TASK_STATE_UNSPECIFIED';
  return name
    .replace(/^TASK_STATE_/, '')
    .toLowerCase()
    .replace(/_/g, '-');
}

/** `working`, `input-required`, `TASK_STATE_WORKING`, `2` → the TaskState, or undefined. */
export function parseState(text: string): TaskState | undefined {
  const key = text.trim().toUpperCase().replace(/-/g, '_');
  const name = key.startsWith('TASK_STATE_') ? key : `TASK_STATE_${key}`;
  const value = (TaskState as unknown as Record<string, number>)[name];
  return typeof value === 'number' && value !== TaskState.TASK_STATE_UNSPECIFIED ? (value as TaskState) : undefined;
}

const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/**
 * The task-state indicator, and the lines on stderr that must stay (the task id, the state
 * changes of a log). On a terminal the state is one self-overwriting line on stderr with a
 * spinner (`⠹ working: Echoing`), cleared whenever answer text is written to stdout and
 * redrawn after. Elsewhere it prints one plain line per state change, so logs stay readable.
 * Lines on stderr wait while an answer line on stdout is unfinished: when both go to the same
 * file or terminal, a line written then would be glued to the answer text.
 */
export class StatusLine {
  private readonly live: boolean;
  private text = '';
  private lastLogged = '';
  private frame = 0;
  private timer: ReturnType<typeof setInterval> | undefined;
  private drawn = false;
  private suspended = false;
  /** Lines waiting for the answer's line to end. */
  private readonly pending: string[] = [];

  constructor(
    private readonly io: Io,
    enabled: boolean,
  ) {
    this.live = enabled && liveStatus(io);
  }

  /**
   * Shows a new status (e.g. `working: Echoing`). `log: false` shows it on a terminal only
   * (progress that is noise in a log, like "sending…").
   */
  set(text: string, log = true): void {
    this.text = text;
    if (this.live) {
      this.timer ??= setInterval(() => this.draw(), 100);
      this.timer.unref?.();
      this.draw();
    } else if (log && text !== this.lastLogged) {
      this.lastLogged = text;
      this.note(text);
    }
  }

  /** Prints `a2a: <text>` as a line that stays, on a terminal and off it. */
  note(text: string): void {
    this.pending.push(`a2a: ${text}\n`);
    this.flush();
  }

  /**
   * Runs `write` (answer text on stdout) with the line cleared. The line comes back only when
   * the answer's own line is complete: stdout and stderr share the terminal's current line,
   * so redrawing under a half-written answer would erase it.
   */
  around(write: () => void, lineOpen: boolean): void {
    this.clear();
    this.suspended = lineOpen;
    write();
    this.flush();
    if (this.live && this.text && !lineOpen) this.draw();
  }

  /** Removes the line for good (lines still waiting for the answer's line to end stay queued). */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.clear();
    this.text = '';
  }

  private flush(): void {
    if (this.suspended || this.pending.length === 0) return;
    const wasDrawn = this.drawn;
    this.clear();
    this.io.stderr.write(this.pending.splice(0).join(''));
    if (wasDrawn) this.draw();
  }

  private draw(): void {
    if (!this.live || this.suspended) return;
    this.frame = (this.frame + 1) % SPINNER.length;
    this.io.stderr.write(`\r\x1b[2K${SPINNER[this.frame]} ${this.text}`);
    this.drawn = true;
  }

  private clear(): void {
    if (this.live && this.drawn) this.io.stderr.write('\r\x1b[2K');
    this.drawn = false;
  }
}

/** Human view of a card. */
export function formatCard(card: AgentCard, url: string): string {
  const yes = (v: boolean | undefined) => (v ? 'yes' : 'no');
  const lines = [`${card.name}${card.version ? `  (version ${card.version})` : ''}`];
  if (card.description) lines.push(`  ${card.description}`);
  lines.push("Interfaces (in the agent's order of preference):");
  const interfaces = card.supportedInterfaces;
  const bindingWidth = Math.max(0, ...interfaces.map((i) => i.protocolBinding.length));
  const versionWidth = Math.max(0, ...interfaces.map((i) => (i.protocolVersion || '-').length));
  const numberWidth = String(interfaces.length).length + 1;
  interfaces.forEach((i, n) => {
    const number = `${n + 1}.`.padEnd(numberWidth);
    lines.push(
      `  ${number} ${i.protocolBinding.padEnd(bindingWidth)}  ${(i.protocolVersion || '-').padEnd(versionWidth)}  ${i.url}${i.tenant ? `  (tenant ${i.tenant})` : ''}`,
    );
  });
  const caps = card.capabilities;
  lines.push(
    `Capabilities: streaming ${yes(caps?.streaming)} · push notifications ${yes(caps?.pushNotifications)} · extended card ${yes(caps?.extendedAgentCard)}`,
  );
  if (caps?.extensions.length) lines.push(`Extensions: ${caps.extensions.map((e) => `${e.uri}${e.required ? ' (required)' : ''}`).join(', ')}`);
  const schemes = Object.keys(card.securitySchemes);
  if (schemes.length) lines.push(`Security schemes: ${schemes.join(', ')}`);
  if (card.skills.length) {
    lines.push('Skills:');
    for (const skill of card.skills) lines.push(`  ${skill.name || skill.id}${skill.description ? ` — ${skill.description}` : ''}`);
  }
  lines.push(`Card: ${url}`);
  return `${lines.join('\n')}\n`;
}

/** Human view of a task. */
export function formatTask(task: Task): string {
  const lines = [`Task ${task.id}${task.contextId ? `  (context ${task.contextId})` : ''}`];
  lines.push(`State: ${stateName(task.status?.state)}${task.status?.timestamp ? `  at ${task.status.timestamp}` : ''}`);
  const status = partsText(task.status?.message?.parts);
  if (status) lines.push(`Status: ${status}`);
  if (task.artifacts.length) {
    lines.push('Artifacts:');
    for (const artifact of task.artifacts) lines.push(`  ${artifact.name || artifact.artifactId}: ${partsText(artifact.parts)}`);
  }
  if (task.history.length) {
    lines.push(`History (${task.history.length} message${task.history.length === 1 ? '' : 's'}, oldest first):`);
    for (const message of task.history) lines.push(formatHistoryMessage(message));
  }
  return `${lines.join('\n')}\n`;
}

/** One message of a task's history: `  user: text`, later lines of the text indented under the first. */
function formatHistoryMessage(message: Message): string {
  const who = message.role === Role.ROLE_AGENT ? 'agent' : message.role === Role.ROLE_USER ? 'user' : 'unknown';
  const text = partsText(message.parts) || '(no text)';
  return `  ${who}: ${text.replace(/\n/g, `\n${' '.repeat(who.length + 4)}`)}`;
}

/** One line of `a2a list`. */
export function formatTaskLine(task: Task): string {
  const text = (task.artifacts.map((a) => partsText(a.parts)).join(' ') || partsText(task.status?.message?.parts)).replace(/\s+/g, ' ').trim();
  const snippet = text.length > 50 ? `${text.slice(0, 49)}…` : text;
  return `${task.id}  ${stateName(task.status?.state).padEnd(14)} ${task.status?.timestamp ?? ''}  ${snippet}`.trimEnd();
}
