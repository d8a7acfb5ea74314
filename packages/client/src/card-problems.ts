/**
 * What is wrong with an agent card the client accepted (`validateAgentCard` rejects only what
 * it cannot use at all): the checks every reader of a card shares, so `a2a card` and the
 * inspector page tell the same story. Pure: no network, no DOM.
 *
 * - {@link cardJsonProblems}: wrong types in the card as served. The decoder is lenient
 *   (`"streaming": "yes"` decodes as `true`, `"version": 3` as `"3"`), so only the JSON shows
 *   them.
 * - {@link cardFieldProblems}: missing or empty fields (description, version, skills, a skill's
 *   id or name, default modes).
 * - {@link interfaceProblem}: an interface the reader cannot use: unknown binding, unknown
 *   protocol version, a URL that is not a URL.
 * - {@link cardContentProblems} / {@link agentCardProblems}: the above together, a field with
 *   a wrong type not also reported as missing.
 */
import { resolveMessageType, validateProtoJson, type AgentCard, type AgentInterface } from '@a2a-polyglot/model';
import { bindingKeyOf } from './bindings.js';
import { isV03Card } from './card-v03.js';
import { protocolGeneration } from './select-interface.js';

/** One problem: `bad` breaks something (a reader cannot use or trust that part), `warn` is worth knowing. */
export interface CardProblem {
  readonly level: 'bad' | 'warn';
  readonly text: string;
  /** The card field it is about (`skills[0].name`), when it is about one. */
  readonly field?: string;
}

/** How many type problems are reported at most: past that the card is plainly not ProtoJSON. */
const MAX_TYPE_PROBLEMS = 20;

/**
 * Wrong types in the card JSON as served, each naming the field (`capabilities.streaming:
 * expected a boolean, got string`). Members of other versions are not problems (merged cards
 * carry the v0.3 ones); a v0.3 card is checked against the v0.3 card message.
 */
export function cardJsonProblems(json: unknown): CardProblem[] {
  const v03 = typeof json === 'object' && json !== null && !Array.isArray(json) && isV03Card(json as Record<string, unknown>);
  const type = resolveMessageType(v03 ? 'a2a.v1.AgentCard' : 'lf.a2a.v1.AgentCard');
  return validateProtoJson(type, json, { ignoreUnknownFields: true, maxViolations: MAX_TYPE_PROBLEMS }).map((v) => ({
    level: 'bad',
    text: `${v.field ? `${v.field}: ` : ''}${v.description}`,
    ...(v.field ? { field: v.field } : {}),
  }));
}

/** Missing fields of a decoded card: what a user of the agent would miss. */
export function cardFieldProblems(card: AgentCard): CardProblem[] {
  const problems: CardProblem[] = [];
  const add = (level: CardProblem['level'], field: string, text: string) => problems.push({ level, text, field });
  if (!card.description.trim()) add('warn', 'description', 'The card has no description.');
  if (!card.version.trim()) add('warn', 'version', 'The card has no version.');
  if (card.skills.length === 0) add('warn', 'skills', 'The card lists no skills: a user cannot tell what the agent does.');
  card.skills.forEach((skill, i) => {
    const which = skill.id.trim() ? `Skill "${skill.id}"` : `Skill ${i + 1}`;
    if (!skill.id.trim()) add('bad', `skills[${i}].id`, `${which} has no id: a request cannot name it.`);
    if (!skill.name.trim()) add('bad', `skills[${i}].name`, `${which} has no name.`);
    if (!skill.description.trim()) add('warn', `skills[${i}].description`, `${which} has no description.`);
  });
  if (card.defaultInputModes.length === 0) add('warn', 'defaultInputModes', 'The card has no defaultInputModes.');
  if (card.defaultOutputModes.length === 0) add('warn', 'defaultOutputModes', 'The card has no defaultOutputModes.');
  return problems;
}

/**
 * The type problems of the card JSON as served (when given), then the missing fields, without
 * a field reported missing because its value had the wrong type (the lenient decoder drops
 * `"defaultInputModes": "text/plain"`; the reader is told it is not an array, not that it is
 * absent).
 */
export function cardContentProblems(card: AgentCard, json?: unknown): CardProblem[] {
  const typed = json === undefined ? [] : cardJsonProblems(json);
  const wrong = typed.flatMap((p) => (p.field ? [p.field] : []));
  const shadowed = (field: string | undefined) =>
    field !== undefined && wrong.some((w) => field === w || field.startsWith(`${w}.`) || field.startsWith(`${w}[`));
  return [...typed, ...cardFieldProblems(card).filter((p) => !shadowed(p.field))];
}

/** `host:port` (`agents.example.com:443`, `[::1]:50051`): how gRPC targets are often written. */
const GRPC_TARGET = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+):\d{1,5}$/i;

/**
 * The first problem of one interface for `reader` (`this page`, `a2a`), or undefined when it
 * looks usable: a binding the client does not know, a protocol version it does not speak, or a
 * URL that cannot be parsed or has the wrong scheme (gRPC may also name a `host:port` target).
 */
export function interfaceProblem(agentInterface: AgentInterface, reader: string): CardProblem | undefined {
  const { url, protocolBinding, protocolVersion } = agentInterface;
  const label = `${protocolBinding} interface ${url}`;
  const binding = bindingKeyOf(protocolBinding);
  if (binding === undefined) return { level: 'bad', text: `The ${label} uses a binding ${reader} does not know.` };
  if (protocolGeneration(protocolVersion) === undefined)
    return { level: 'warn', text: `The ${label} speaks A2A ${protocolVersion}, which ${reader} does not.` };
  if (binding === 'grpc' && GRPC_TARGET.test(url.trim())) return undefined;
  const scheme = schemeOf(url);
  if (scheme === undefined) return { level: 'bad', text: `The ${label} has a URL that is not a URL.` };
  const wanted = SCHEMES[binding];
  if (wanted && !wanted.includes(scheme))
    return { level: 'bad', text: `The ${label} must use ${wanted.map((s) => s.slice(0, -1)).join(' or ')}, not ${scheme.slice(0, -1)}.` };
  return undefined;
}

/** The URL schemes each binding can be reached over (gRPC targets take many forms: not checked). */
const SCHEMES: Partial<Record<NonNullable<ReturnType<typeof bindingKeyOf>>, readonly string[]>> = {
  jsonrpc: ['http:', 'https:'],
  rest: ['http:', 'https:'],
  websocket: ['ws:', 'wss:', 'http:', 'https:'],
};

function schemeOf(url: string): string | undefined {
  try {
    return new URL(url).protocol;
  } catch {
    return undefined;
  }
}

/**
 * Every problem of a decoded card for `reader`: its types (given the JSON as served) and
 * fields ({@link cardContentProblems}), then each interface's.
 */
export function agentCardProblems(card: AgentCard, reader: string, json?: unknown): CardProblem[] {
  const problems = cardContentProblems(card, json);
  for (const agentInterface of card.supportedInterfaces) {
    const problem = interfaceProblem(agentInterface, reader);
    if (problem) problems.push(problem);
  }
  return problems;
}
