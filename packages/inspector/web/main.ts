/**
 * The inspector page: connect to an agent (the page's own origin when the executor serves it,
 * `?agent=URL`, or any URL typed in), then look at its card, send messages, follow tasks and
 * list them. Everything goes through @a2a-polyglot/client.
 */
import { newMessageId, type BindingKey, type Client } from '@a2a-polyglot/client';
import { Role, type AgentCard, type Message } from '@a2a-polyglot/model';
import { headerNameProblem, type PageAuth, parseHeaderLines } from './auth.js';
import { cardProblems } from './card-problems.js';
import { renderCard } from './card-view.js';
import { BINDING_LABELS, clientFor, fetchCard, pageBindings } from './connection.js';
import { copyButton } from './copy.js';
import { byId, h } from './dom.js';
import { composeParts, parseJson, type PickedFile } from './parts.js';
import { type RawEntry, RawLog } from './raw-log.js';
import { describe, TaskView } from './task-view.js';
import { TasksList } from './tasks-list.js';

/** The agent the page talks to. */
interface Session {
  readonly card: AgentCard;
  readonly cardUrl: string;
  readonly auth: PageAuth;
  client: Client;
}

let session: Session | undefined;
const status = byId('status');
const bindingSelect = byId<HTMLSelectElement>('binding');
const rawLog = new RawLog(byId('raw-log'));
const sink = (entry: RawEntry) => rawLog.add(entry);

function current(): Client {
  if (!session) throw new Error('Connect to an agent first');
  return session.client;
}

function say(text: string, error = false): void {
  status.textContent = text;
  status.className = error ? 'error' : '';
}

const taskView = new TaskView(
  current,
  (contextId) => {
    byId<HTMLInputElement>('context-id').value = contextId;
    byId('text').focus();
  },
  () => void tasksList.refresh(),
);
const tasksList = new TasksList(current, (id) => {
  void taskView.open(id);
  byId('task').scrollIntoView({ block: 'start' });
});

async function connect(): Promise<void> {
  const url = byId<HTMLInputElement>('agent-url').value.trim();
  const auth = readAuth();
  if ('error' in auth) return say(auth.error, true);
  say(`Fetching the agent card of ${url}…`);
  for (const id of ['card', 'compose', 'task', 'tasks']) byId(id).hidden = true;
  await session?.client.close().catch(() => undefined);
  session = undefined;
  try {
    const { card, url: cardUrl, json } = await fetchCard(url, sink);
    sink({ kind: 'card', title: cardUrl, body: JSON.stringify(json) });
    const bindings = pageBindings(card);
    const problems = cardProblems(card, { pageOrigin: location.origin, cardUrl, json });
    renderCard(byId('card-body'), card, cardUrl, problems, { onExample: fillExample });
    byId('card').hidden = false;
    const [first] = bindings;
    if (first === undefined) return say('The card offers no binding a browser can use (WebSocket, JSON-RPC or REST).', true);
    bindingSelect.replaceChildren(...bindings.map((b) => h('option', { value: b }, BINDING_LABELS[b])));
    session = { card, cardUrl, auth, client: clientFor(card, first, auth, sink) };
    byId<HTMLInputElement>('streaming').checked = card.capabilities?.streaming !== false;
    byId('compose').hidden = false;
    byId('tasks').hidden = false;
    say(`Card of "${card.name}" loaded; calls go over ${BINDING_LABELS[session.client.binding]} to ${session.client.agentInterface.url}`);
    await tasksList.load('');
  } catch (error) {
    say(`Could not connect: ${describe(error)}`, true);
  }
}

/** The auth fields of the connect form, or what is wrong with them. */
function readAuth(): PageAuth | { readonly error: string } {
  const kind = byId<HTMLSelectElement>('auth-kind').value === 'header' ? 'header' : 'bearer';
  const headerName = byId<HTMLInputElement>('auth-header').value.trim();
  if (kind === 'header') {
    const problem = headerNameProblem(headerName);
    if (problem) return { error: problem };
  }
  const extra = parseHeaderLines(byId<HTMLTextAreaElement>('extra-headers').value);
  if ('error' in extra) return extra;
  return { token: byId<HTMLInputElement>('token').value, kind, headerName, headers: extra.headers };
}

function fillExample(text: string): void {
  const box = byId<HTMLTextAreaElement>('text');
  box.value = text;
  box.focus();
}

async function pickedFile(): Promise<PickedFile | undefined> {
  const file = byId<HTMLInputElement>('file').files?.[0];
  return file ? { name: file.name, type: file.type, bytes: new Uint8Array(await file.arrayBuffer()) } : undefined;
}

async function send(): Promise<void> {
  if (!session) return;
  const result = composeParts({
    text: byId<HTMLTextAreaElement>('text').value,
    file: await pickedFile(),
    fileMode: byId<HTMLSelectElement>('file-mode').value === 'url' ? 'url' : 'raw',
    fileUrl: byId<HTMLInputElement>('file-url').value,
    data: byId<HTMLTextAreaElement>('data').value,
  });
  if ('error' in result) return say(result.error, true);
  const message: Message = {
    messageId: newMessageId(),
    contextId: byId<HTMLInputElement>('context-id').value.trim(),
    taskId: '',
    role: Role.ROLE_USER,
    parts: result.parts,
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
  const client = session.client;
  taskView.reset();
  taskView.sent(message);
  say(`Sent over ${BINDING_LABELS[client.binding]}.`);
  if (byId<HTMLInputElement>('streaming').checked) {
    await taskView.follow((options) => client.sendStreamingMessage({ message }, options));
  } else {
    try {
      taskView.showResponse(await client.sendMessage({ message }));
    } catch (error) {
      taskView.failed('Sending', error);
    }
    await tasksList.refresh();
  }
}

function switchBinding(): void {
  if (!session) return;
  const binding = bindingSelect.value as BindingKey;
  void session.client.close().catch(() => undefined);
  session.client = clientFor(session.card, binding, session.auth, sink);
  say(`Using ${BINDING_LABELS[binding]} at ${session.client.agentInterface.url}`);
}

function start(): void {
  const params = new URLSearchParams(location.search);
  const urlInput = byId<HTMLInputElement>('agent-url');
  urlInput.value = params.get('agent') ?? location.origin;
  byId<HTMLFormElement>('connect-form').addEventListener('submit', (event) => {
    event.preventDefault();
    void connect();
  });
  byId<HTMLFormElement>('compose-form').addEventListener('submit', (event) => {
    event.preventDefault();
    void send();
  });
  byId<HTMLTextAreaElement>('text').addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      void send();
    }
  });
  byId<HTMLTextAreaElement>('data').addEventListener('input', (event) => {
    const text = (event.target as HTMLTextAreaElement).value;
    const parsed = text.trim() ? parseJson(text) : { value: undefined };
    byId('data-error').textContent = 'error' in parsed ? parsed.error : '';
  });
  bindingSelect.addEventListener('change', switchBinding);
  const authKind = byId<HTMLSelectElement>('auth-kind');
  const showHeaderName = () => {
    byId('auth-header-label').hidden = authKind.value !== 'header';
  };
  authKind.addEventListener('change', showHeaderName);
  showHeaderName();
  byId('raw-copy-all').replaceWith(copyButton(() => rawLog.text(), 'Copy every entry of the raw pane', 'Copy all', ''));
  byId('raw-clear').addEventListener('click', () => rawLog.clear());
  void connect();
}

start();
