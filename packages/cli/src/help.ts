import type { HelpTopic } from './args.js';
import { DEFAULT_TIMEOUT_S } from './args.js';

const COMMON = `Common options:
  -b, --binding B      jsonrpc | rest | grpc | websocket (default: the card's first usable one)
  -H, --header 'K: V'  extra header on every request (repeatable)
      --token T        bearer token (Authorization: Bearer T; default: $A2A_TOKEN)
      --json           machine output: one JSON object per line; a failure is
                       {"error": {"message", "exitCode", …}} on stdout
  -t, --timeout S      give up after S seconds without an answer (default ${DEFAULT_TIMEOUT_S})
  -h, --help           this help

Environment:
  A2A_TOKEN            bearer token, when --token is not given
  A2A_API_KEY          API key, sent in the header the card's API key scheme names
                       (X-API-Key if it names none)`;

/** Usage text of the CLI and of each command. */
export const HELP: Readonly<Record<HelpTopic, string>> = {
  main: `a2a — talk to an A2A agent over any binding (JSON-RPC, HTTP+JSON, gRPC, WebSocket)

Usage: a2a <command> [options]

Commands:
  card URL              show the agent card
  send URL TEXT         send a message; streams the answer as it arrives
  get URL TASK_ID       show a task
  list URL              list tasks
  cancel URL TASK_ID    cancel a task
  subscribe URL TASK_ID follow a running task to its end
  lite parse|format|run A2A-Lite chat messages: parse, format, delegate to an agent

URL is the agent's base URL, with http:// or https:// (its card is read from
/.well-known/agent-card.json). The card decides the protocol version: A2A 1.0, or
0.3 for an agent whose card offers only 0.3.

${COMMON}

Exit codes: 0 ok · 1 task failed/canceled/rejected · 2 usage · 3 input required (no terminal)
            4 auth required · 5 agent error · 6 unreachable/timeout · 7 not an A2A agent
            130 interrupted (Ctrl-C)

Run 'a2a <command> --help' for the options of a command.`,
  card: `Usage: a2a card URL [options]

Fetches and validates the agent card (/.well-known/agent-card.json, then the legacy
/.well-known/agent.json) and prints its name, interfaces, capabilities and skills, then
its problems on stderr: fields of the wrong type, skills without a name or id, interface
URLs that are not URLs, bindings and protocol versions a2a does not know, missing
description, version or skills. Exits 7 when any problem is an error (warnings alone: 0).
With --json, prints the card as JSON, then {"error": {…, "problems": […]}} for errors.

${COMMON}`,
  send: `Usage: a2a send URL TEXT [options]

Sends TEXT as a user message. By default the answer is streamed to stdout as it arrives.
Stderr names the task in full as soon as it exists, then shows its state (a live indicator
on a terminal, one line per change elsewhere); a dropped stream is resumed by itself. Ctrl-C
stops watching, not the task, and shows how to subscribe to it or cancel it. When the agent
asks for input, a terminal prompts for the answer (an empty line asks again) and the task
continues; without a terminal the question is printed and a2a exits with code 3.

Options:
      --no-stream        wait for the final answer (SendMessage) instead of streaming
      --no-wait          do not wait at all: print the task id on stdout as soon as the
                         agent created the task, and exit 0 (follow it with subscribe)
      --task-id ID       continue an existing task (e.g. answer an input-required task)
      --context-id ID    send within an existing context
      --input TEXT       answer for the next input-required question (repeatable, in order)

${COMMON}`,
  get: `Usage: a2a get URL TASK_ID [options]

Shows a task: state, status message and artifacts.

Options:
      --history N        also print its last N messages, oldest first

${COMMON}`,
  list: `Usage: a2a list URL [options]

Lists tasks, newest first.

Options:
      --context-id ID    only tasks of this context
      --status STATE     only tasks in this state (e.g. working, completed, TASK_STATE_FAILED)
      --page-size N      at most N tasks (1..100; anything else is refused before sending)
      --page-token T     continue from a previous page

${COMMON}`,
  cancel: `Usage: a2a cancel URL TASK_ID [options]

Cancels a task and shows its final state.

${COMMON}`,
  subscribe: `Usage: a2a subscribe URL TASK_ID [options]

Follows a running task: the current state first, then every event until the task ends or
needs input. A dropped stream is resumed by itself. A task that already ended is shown as it
ended, with the exit code of that end (0 for completed).

${COMMON}`,
  lite: `Usage: a2a lite <command> [options]

A2A-Lite is the "[A2A:type key=value …]" convention for agents that share a chat channel.

Commands:
  parse [TEXT|-]             print TEXT (or stdin) parsed, as JSON
  format TYPE [key=value …] [-- BODY…]
                             print a tagged A2A-Lite message
  run URL TEXT|-             delegate an A2A-Lite message to the A2A agent at URL and print
                             the status and result messages it produces

Run 'a2a lite <command> --help' for the options of a command.`,
  'lite parse': `Usage: a2a lite parse [TEXT|-] [options]

Parses an A2A-Lite message and prints it as one line of JSON:
  {"isA2A":true,"type":"task","params":{"id":"t-1"},"body":"…","attachments":[]}
Text that is not a well-formed tag is plain conversation, not an error: it prints
{"isA2A":false} (with a "reason" when the first line looked like a tag) and exits 0.
With "-", or with no TEXT and stdin not a terminal, the text is read from stdin.

Options:
  -h, --help           this help`,
  'lite format': `Usage: a2a lite format TYPE [key=value …] [-- BODY…]

Prints a tagged A2A-Lite message: the tag line, then the body words after -- joined with
spaces. Values are quoted and escaped when they need it, so the tag stays on one line.
Types: discover, card, task (id=), status (task=, state=), result (task=, state=),
cancel (task=), ack (task=). A missing parameter, an unknown type, key or state is a usage
error (exit 2).

Example:
  a2a lite format task id=research-001 skill=research -- Summarize this week in AI agents

Options:
  -h, --help           this help`,
  'lite run': `Usage: a2a lite run URL TEXT|- [options]

Runs one A2A-Lite exchange against the A2A agent at URL over JSON-RPC and prints each
message it produces, as it arrives:
  [A2A:discover]          → [A2A:card] with a summary of the agent card
  [A2A:task id=X]         → [A2A:status …] per state change, then [A2A:result …]
  [A2A:task id=X ref=R]   → the same, as a follow-up of A2A task R (an input-required answer)
  [A2A:cancel task=X ref=R] → [A2A:result task=X state=cancelled …]
  untagged text           → the agent's answer as plain text
TEXT "-" reads the message from stdin (a tag line and a multi-line body).
Exit code: 0 completed, 1 failed/cancelled/rejected, 3 input-required (stderr shows how to
answer), 2 a message that cannot be sent (status, result, ack, card).

Options:
      --no-stream        use SendMessage even when the agent streams
      --context-id ID    the A2A contextId of the chat conversation
  -H, --header 'K: V'    extra header on every request (repeatable)
      --token T          bearer token (Authorization: Bearer T)
      --json             one JSON object per message: {"text": …, "lite": <parsed>}
  -t, --timeout S        give up when the whole exchange takes longer than S seconds (default ${DEFAULT_TIMEOUT_S})
  -h, --help             this help`,
};
