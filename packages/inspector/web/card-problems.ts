/**
 * What is wrong with an agent card, as a person using the page should be told: checks that
 * need no network, on a card the client already accepted (it rejects what it cannot use at
 * all; that error is shown as it is). The checks that do not depend on the page are the
 * client's (`@a2a-polyglot/client` card-problems), shared with `a2a card`. Pure: no DOM, so it
 * is unit-tested in Node.
 */
import type { AgentCard } from '@a2a-polyglot/model';
import { bindingKeyOf, type CardProblem, cardContentProblems, interfaceProblem } from '@a2a-polyglot/client';

export type { CardProblem } from '@a2a-polyglot/client';

/** True for `localhost`, `*.localhost`, 127.0.0.0/8, `::1` and `0.0.0.0` (hand-written: the page bundles no address library for five patterns). */
export function isLocalHostname(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  return host === 'localhost' || host.endsWith('.localhost') || /^127\.\d+\.\d+\.\d+$/.test(host) || host === '::1' || host === '0.0.0.0';
}

/**
 * The card's problems, seen from a page at `pageOrigin` that fetched the card at `cardUrl`:
 * the checks every reader shares (wrong types in the JSON as served, missing fields, unknown bindings and versions, unparsable
 * URLs: the client's `cardContentProblems` / `interfaceProblem`, also behind `a2a card`), then
 * what cannot work from here: a loopback URL in a card served from another host, or to a page
 * on another host; plain `http:`/`ws:` under an `https:` page; gRPC, which browsers cannot
 * speak (not a problem of the card).
 */
export function cardProblems(
  card: AgentCard,
  where: {
    readonly pageOrigin: string;
    readonly cardUrl: string /** The card JSON as served: its wrong types (`cardJsonProblems`). */;
    readonly json?: unknown;
  },
): CardProblem[] {
  const problems = cardContentProblems(card, where.json);
  const page = new URL(where.pageOrigin);
  const served = new URL(where.cardUrl);
  const remote = [served.hostname, page.hostname].find((host) => !isLocalHostname(host));
  let usable = 0;
  for (const agentInterface of card.supportedInterfaces) {
    const shared = interfaceProblem(agentInterface, 'this page');
    if (shared) {
      problems.push(shared);
      continue;
    }
    const { url, protocolBinding } = agentInterface;
    if (bindingKeyOf(protocolBinding) === 'grpc') continue; // browsers cannot speak gRPC; not a problem of the card
    const label = `${protocolBinding} interface ${url}`;
    const parsed = new URL(url); // interfaceProblem checked that it parses
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
