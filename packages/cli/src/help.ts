import type { CommandName } from './args.js';
import { DEFAULT_TIMEOUT_S } from './args.js';

const COMMON = `Common options:
  -b, --binding B      jsonrpc | rest | grpc | websocket (default: the card's first usable one)
  -H, --header 'K: V'  extra header on every request (repeatable)
      --token T        bearer token (Authorization: Bearer T)
      --json           machine output: one JSON object per line
  -t, --timeout S      give up after S seconds without an answer (default ${DEFAULT_TIMEOUT_S})
  -h, --help           this help`;

/** Usage text of the CLI and of each command. */
export const HELP: Readonly<Record<'main' | CommandName, string>> = {
  main: `a2a — talk to an A2A agent over any binding (JSON-RPC, HTTP+JSON, gRPC, WebSocket)

Usage: a2a <command> [options]

Commands:
  card URL              show the agent card
  send URL TEXT         send a message; streams the answer as it arrives
  get URL TASK_ID       show a task
  list URL              list tasks
  cancel URL TASK_ID    cancel a task
  subscribe URL TASK_ID follow a running task to its end

URL is the agent's base URL (its card is read from /.well-known/agent-card.json).

${COMMON}

Exit codes: 0 ok · 1 task failed/canceled/rejected · 2 usage · 3 input required (no terminal)
            4 auth required · 5 agent error · 6 unreachable/timeout · 7 not an A2A agent

Run 'a2a <command> --help' for the options of a command.`,
  card: `Usage: a2a card URL [options]

Fetches and validates the agent card (/.well-known/agent-card.json, then the legacy
/.well-known/agent.json) and prints its name, interfaces, capabilities and skills.
With --json, prints the card as JSON.

${COMMON}`,
  send: `Usage: a2a send URL TEXT [options]

Sends TEXT as a user message. By default the answer is streamed as it arrives, with a live
task-state indicator on a terminal; a dropped stream is resumed by itself. When the agent
asks for input, a terminal prompts for the answer and the task continues; without a
terminal the question is printed and a2a exits with code 3.

Options:
      --no-stream        wait for the final answer (SendMessage) instead of streaming
      --task-id ID       continue an existing task (e.g. answer an input-required task)
      --context-id ID    send within an existing context
      --input TEXT       answer for the next input-required question (repeatable, in order)

${COMMON}`,
  get: `Usage: a2a get URL TASK_ID [options]

Shows a task: state, status message and artifacts.

Options:
      --history N        include at most N history messages

${COMMON}`,
  list: `Usage: a2a list URL [options]

Lists tasks, newest first.

Options:
      --context-id ID    only tasks of this context
      --status STATE     only tasks in this state (e.g. working, completed, TASK_STATE_FAILED)
      --page-size N      at most N tasks (1..100)
      --page-token T     continue from a previous page

${COMMON}`,
  cancel: `Usage: a2a cancel URL TASK_ID [options]

Cancels a task and shows its final state.

${COMMON}`,
  subscribe: `Usage: a2a subscribe URL TASK_ID [options]

Follows a running task: the current state first, then every event until the task ends or
needs input. A dropped stream is resumed by itself.

${COMMON}`,
};
