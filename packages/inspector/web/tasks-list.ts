/**
 * The task list: ListTasks with the filters the protocol has (context, state, changed after a
 * time), page by page (`nextPageToken`), each task openable in the task view, and a task's
 * push-notification configs on demand.
 */
import { type Client, partsText } from '@a2a-polyglot/client';
import { TaskState, type Task } from '@a2a-polyglot/model';
import { stateBadge, stateLabel } from './badges.js';
import { copyButton } from './copy.js';
import { byId, fill, h, within } from './dom.js';
import { shortId } from './ids.js';
import { describe } from './task-view.js';

/** The states a user can filter on (every state but UNSPECIFIED). */
const FILTER_STATES: readonly TaskState[] = [
  TaskState.TASK_STATE_SUBMITTED,
  TaskState.TASK_STATE_WORKING,
  TaskState.TASK_STATE_INPUT_REQUIRED,
  TaskState.TASK_STATE_AUTH_REQUIRED,
  TaskState.TASK_STATE_COMPLETED,
  TaskState.TASK_STATE_FAILED,
  TaskState.TASK_STATE_CANCELED,
  TaskState.TASK_STATE_REJECTED,
];

/** The tasks section. */
export class TasksList {
  private readonly body = within<HTMLTableSectionElement>(byId('tasks-table'), 'tbody');
  private readonly count = byId('tasks-count');
  private readonly nextButton = byId<HTMLButtonElement>('next-page');
  private readonly firstButton = byId<HTMLButtonElement>('first-page');
  private readonly pushBox = byId('push-configs');
  private nextToken = '';
  /** The token of the page shown ('' = the first). */
  private shownToken = '';

  constructor(
    private readonly client: () => Client,
    private readonly onOpen: (taskId: string) => void,
  ) {
    const state = byId<HTMLSelectElement>('filter-state');
    state.append(h('option', { value: '' }, 'any'), ...FILTER_STATES.map((s) => h('option', { value: String(s) }, stateLabel(s))));
    byId<HTMLFormElement>('tasks-form').addEventListener('submit', (event) => {
      event.preventDefault();
      void this.load('');
    });
    this.firstButton.addEventListener('click', () => void this.load(''));
    this.nextButton.addEventListener('click', () => void this.load(this.nextToken));
  }

  /** Filters on a context (the "context" link of a row) and lists. */
  filterContext(contextId: string): Promise<void> {
    byId<HTMLInputElement>('filter-context').value = contextId;
    return this.load('');
  }

  /** Lists the page shown again (a task changed). */
  refresh(): Promise<void> {
    return this.load(this.shownToken);
  }

  /** Lists one page: the first (`pageToken` empty) or the one after the current. */
  async load(pageToken: string): Promise<void> {
    const contextId = byId<HTMLInputElement>('filter-context').value.trim();
    const state = byId<HTMLSelectElement>('filter-state').value;
    const after = byId<HTMLInputElement>('filter-after').value;
    const pageSize = Number(byId<HTMLInputElement>('filter-size').value) || 10;
    try {
      const page = await this.client().listTasks({
        contextId,
        status: state ? Number(state) : TaskState.TASK_STATE_UNSPECIFIED,
        statusTimestampAfter: after ? new Date(after).toISOString() : undefined,
        pageSize,
        pageToken,
        historyLength: 0,
        includeArtifacts: false,
      });
      fill(this.body, ...page.tasks.map((task) => this.row(task)));
      if (page.tasks.length === 0) fill(this.body, h('tr', {}, h('td', { colspan: 5, class: 'muted' }, 'No tasks match.')));
      this.nextToken = page.nextPageToken;
      this.shownToken = pageToken;
      this.nextButton.disabled = !page.nextPageToken;
      this.firstButton.disabled = pageToken === '';
      this.count.textContent = `${page.tasks.length} shown of ${page.totalSize} matching`;
    } catch (error) {
      fill(this.body, h('tr', {}, h('td', { colspan: 5, class: 'error' }, `Listing failed: ${describe(error)}`)));
    }
  }

  /** One task: short ids (the whole one in the title, and copyable), the state with its status text, when, and actions. */
  private row(task: Task): HTMLElement {
    const when = task.status?.timestamp ? new Date(task.status.timestamp).toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'medium' }) : '—';
    const statusText = partsText(task.status?.message?.parts);
    return h(
      'tr',
      { 'data-task-id': task.id },
      h(
        'td',
        { class: 'id-cell' },
        h(
          'button',
          { type: 'button', class: 'quiet mono open-task', title: `Open task ${task.id} in the task view`, onclick: () => this.onOpen(task.id) },
          shortId(task.id),
        ),
        copyButton(() => task.id, `Copy task id ${task.id}`),
      ),
      h('td', { class: 'state-cell' }, stateBadge(task.status?.state), statusText && h('span', { class: 'status-text' }, statusText)),
      h(
        'td',
        { class: 'id-cell' },
        h(
          'button',
          { type: 'button', class: 'quiet mono', title: `Only tasks of context ${task.contextId}`, onclick: () => void this.filterContext(task.contextId) },
          shortId(task.contextId),
        ),
        copyButton(() => task.contextId, `Copy context id ${task.contextId}`),
      ),
      h('td', { class: 'when' }, when),
      h('td', {}, h('button', { type: 'button', class: 'quiet', onclick: () => void this.pushConfigs(task.id) }, 'Push configs')),
    );
  }

  private async pushConfigs(taskId: string): Promise<void> {
    try {
      const { configs } = await this.client().listTaskPushNotificationConfigs({ taskId });
      fill(
        this.pushBox,
        h('h3', {}, `Push configs of task ${taskId}`),
        configs.length === 0
          ? h('p', { class: 'muted' }, 'None registered.')
          : h(
              'ul',
              {},
              ...configs.map((c) =>
                h('li', {}, h('code', {}, c.id), ` → ${c.url}`, c.token ? ' (with token)' : '', c.authentication ? ` · auth ${c.authentication.scheme}` : ''),
              ),
            ),
      );
    } catch (error) {
      fill(this.pushBox, h('p', { class: 'error' }, `Push configs of ${taskId}: ${describe(error)}`));
    }
  }
}
