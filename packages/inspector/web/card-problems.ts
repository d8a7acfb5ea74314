/**
 * What is wrong with an agent card, as a person using the page should be told: checks that
 * need no network, on a card the client already accepted (it rejects what it cannot use at
 * all; that error is shown as it is). Pure: no DOM, so it is unit-tested in Node.
 */
import type { AgentCard } from '@a2a-polyglot/model';
import { bindingKeyOf, protocolGeneration } from '@a2a-polyglot/client';

/** One problem: `bad` breaks something, `warn` is worth knowing. */
export interface CardProblem {
  readonly level: 'bad' | 'warn';
  readonly text: string;
}

/** True for `localhost`, `*.localhost`, 127.0.0.0/8, `::1` and `0.0.0.0` (hand-written: the page bundles no address library for five patterns). */
export function isLocalHostname(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  return host === 'localhost' || host.endsWith('.localhost') || /^127\.\d+\.\d+\.\d+$/.test(host) || host === '::1' || host === '0.0.0.0';
}

/**
 * The card's problems, seen from a page at `pageOrigin` that fetched the card at `cardUrl`:
 * missing fields, interface URLs that cannot work from here (a loopback URL in a card served
 * from another host, or to a page on another host; plain `http:`/`ws:`
 * under an `https:` page, an unparsable URL), bindings a browser cannot use, and versions this
 * client does not speak.
 */
export function cardProblems(card: AgentCard, where: { readonly pageOrigin: string; readonly cardUrl: string }): CardProblem[] {
  const problems: CardProblem[] = [];
  const page = new URL(where.pageOrigin);
  const served = new URL(where.cardUrl);
  const remote = [served.hostname, page.hostname].find((host) => !isLocalHostname(host));
  if (!card.description.trim()) problems.push({ level: 'warn', text: 'The card has no description.' });
  if (!card.version.trim()) problems.push({ level: 'warn', text: 'The card has no version.' });
  if (card.skills.length === 0) problems.push({ level: 'warn', text: 'The card lists no skills: a user cannot tell what the agent does.' });
  if (card.defaultInputModes.length === 0) problems.push({ level: 'warn', text: 'The card has no defaultInputModes.' });
  if (card.defaultOutputModes.length === 0) problems.push({ level: 'warn', text: 'The card has no defaultOutputModes.' });
  let usable = 0;
  for (const agentInterface of card.supportedInterfaces) {
    const { url, protocolBinding, protocolVersion } = agentInterface;
    const binding = bindingKeyOf(protocolBinding);
    const label = `${protocolBinding} interface ${url}`;
    if (binding === undefined) {
      problems.push({ level: 'warn', text: `The ${label} uses a binding this page does not know.` });
      continue;
    }
    if (binding === 'grpc') continue; // browsers cannot speak gRPC; not a problem of the card
    if (protocolGeneration(protocolVersion) === undefined) {
      problems.push({ level: 'warn', text: `The ${label} speaks A2A ${protocolVersion}, which this page does not.` });
      continue;
    }
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      problems.push({ level: 'bad', text: `The ${label} has a URL that is not a URL.` });
      continue;
    }
    if (isLocalHostname(parsed.hostname) && remote !== undefined) {
      problems.push({
        level: 'bad',
        text: `The ${label} points at ${parsed.hostname}, which is the browser's own machine, not ${remote}: the server does not know its public URL (set publicBaseUrl).`,
      });
      continue;
    }
    if (page.protocol === 'https:' && (parsed.protocol === 'http:' || parsed.protocol === 'ws:')) {
      problems.push({ level: 'bad', text: `The ${label} is not encrypted, and a page served over https may not call it (mixed content).` });
      continue;
    }
    usable++;
  }
  if (usable === 0) problems.push({ level: 'bad', text: 'No interface of the card can be used from this page.' });
  return problems;
}
