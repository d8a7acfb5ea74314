/**
 * The card section: who the agent is, its skills (each example fills the composer), its
 * interfaces with reachability, capabilities, security schemes, and its problems in plain words.
 */
import { bindingKeyOf, interfaceProblem } from '@a2a-polyglot/client';
import { SecurityScheme, type AgentCard, type AgentInterface, type AgentSkill } from '@a2a-polyglot/model';
import type { CardProblem } from './card-problems.js';
import { h, type Child } from './dom.js';
import { webUrl } from './links.js';
import { probeInterface } from './probe.js';

/** What the card view calls back. */
export interface CardViewHooks {
  /** An example was chosen: fill the composer with it. */
  readonly onExample: (text: string) => void;
}

/** Renders `card` into `root`; probes the interfaces in the background and adds problems for the unreachable ones. */
export function renderCard(root: HTMLElement, card: AgentCard, cardUrl: string, problems: readonly CardProblem[], hooks: CardViewHooks): void {
  const problemList = h('ul', { class: 'problems', id: 'card-problems' }, ...problems.map(problemItem));
  const caps = card.capabilities;
  root.replaceChildren(
    h('h3', { id: 'agent-name' }, card.name || '(no name)'),
    h('p', {}, card.description || h('span', { class: 'muted' }, 'No description.')),
    h(
      'dl',
      {},
      ...pair('Version', card.version || '—'),
      ...pair('Card', webLink(cardUrl, cardUrl, 'mono')),
      ...(card.provider ? pair('Provider', card.provider.url ? webLink(card.provider.url, card.provider.organization) : card.provider.organization) : []),
      ...(card.documentationUrl ? pair('Docs', webLink(card.documentationUrl)) : []),
      ...pair('Input modes', card.defaultInputModes.join(', ') || '—'),
      ...pair('Output modes', card.defaultOutputModes.join(', ') || '—'),
    ),
    h('h3', {}, 'Problems'),
    problemList,
    h('p', { id: 'no-problems', class: 'muted', hidden: problems.length > 0 }, 'None found.'),
    h('h3', {}, 'Skills'),
    card.skills.length ? h('div', {}, ...card.skills.map((s) => skillView(s, hooks))) : h('p', { class: 'muted' }, 'No skills listed.'),
    h('h3', {}, 'Interfaces'),
    interfacesTable(card, problemList),
    h('h3', {}, 'Capabilities'),
    h(
      'dl',
      { id: 'capabilities' },
      ...pair('Streaming', yesNo(caps?.streaming)),
      ...pair('Push notifications', yesNo(caps?.pushNotifications)),
      ...pair('Extended card', yesNo(caps?.extendedAgentCard)),
      ...pair('Extensions', caps?.extensions.length ? caps.extensions.map((e) => e.uri).join(', ') : 'none'),
    ),
    h('h3', {}, 'Security'),
    securityView(card),
  );
}

/** A link to `url` when it is an http(s) URL; otherwise `text` (and the URL) as plain text (see links.ts). */
function webLink(url: string, text: string = url, className?: string): HTMLElement {
  const href = webUrl(url);
  if (href) return h('a', { href, rel: 'noreferrer', class: className }, text);
  return h('span', { class: className, title: 'Not a web link, so not clickable' }, text === url ? url : `${text} (${url})`);
}

function problemItem(problem: CardProblem): HTMLElement {
  return h('li', { class: problem.level }, problem.text);
}

function pair(term: string, value: Child): HTMLElement[] {
  return [h('dt', {}, term), h('dd', {}, value)];
}

function yesNo(value: boolean | undefined): string {
  return value === undefined ? 'not declared' : value ? 'yes' : 'no';
}

function skillView(skill: AgentSkill, hooks: CardViewHooks): HTMLElement {
  return h(
    'div',
    { class: 'skill' },
    h('strong', {}, skill.name || skill.id),
    skill.tags.length > 0 && h('span', { class: 'muted' }, ` · ${skill.tags.join(', ')}`),
    h('p', {}, skill.description),
    skill.examples.length > 0 &&
      h(
        'div',
        { class: 'chips', role: 'group', 'aria-label': `Examples of ${skill.name}` },
        ...skill.examples.map((example) =>
          h('button', { type: 'button', class: 'example', title: 'Put this example in the composer', onclick: () => hooks.onExample(example) }, example),
        ),
      ),
  );
}

function interfacesTable(card: AgentCard, problemList: HTMLElement): HTMLElement {
  const reported = new Set<string>(); // one problem per URL (the same endpoint often serves 1.0 and 0.3)
  const rows = card.supportedInterfaces.map((agentInterface) => {
    const unusable = interfaceProblem(agentInterface, 'this page');
    const binding = bindingKeyOf(agentInterface.protocolBinding);
    const first = binding === 'grpc' ? 'not from a browser' : unusable ? 'not checked (see Problems)' : 'checking…';
    const status = h('td', { class: 'muted' }, first);
    if (unusable || binding === 'grpc') return interfaceRow(agentInterface, status);
    void probeInterface(agentInterface).then((result) => {
      if (result === 'skipped') {
        status.textContent = 'not checked';
        return;
      }
      status.textContent = result;
      status.className = result === 'reachable' ? '' : 'error';
      if (result === 'unreachable' && !reported.has(agentInterface.url)) {
        reported.add(agentInterface.url);
        problemList.append(
          problemItem({ level: 'bad', text: `The ${agentInterface.protocolBinding} interface ${agentInterface.url} does not answer from this page.` }),
        );
        document.getElementById('no-problems')?.setAttribute('hidden', '');
      }
    });
    return interfaceRow(agentInterface, status);
  });
  return h(
    'table',
    { id: 'interfaces' },
    h('thead', {}, h('tr', {}, h('th', {}, 'Binding'), h('th', {}, 'Version'), h('th', {}, 'URL'), h('th', {}, 'From here'))),
    h('tbody', {}, ...rows),
  );
}

function interfaceRow(agentInterface: AgentInterface, status: HTMLElement): HTMLElement {
  return h(
    'tr',
    {},
    h('td', {}, agentInterface.protocolBinding),
    h('td', {}, agentInterface.protocolVersion || '—'),
    h('td', { class: 'mono' }, agentInterface.url),
    status,
  );
}

function securityView(card: AgentCard): HTMLElement {
  const schemes = Object.entries(card.securitySchemes);
  if (schemes.length === 0) return h('p', { class: 'muted' }, 'No security schemes: the agent takes calls without credentials.');
  const required = card.securityRequirements.map((r) => Object.keys(r.schemes).join(' + ')).filter(Boolean);
  return h(
    'div',
    {},
    h('dl', {}, ...schemes.flatMap(([name, scheme]) => pair(name, schemeText(scheme)))),
    required.length > 0 && h('p', {}, `Required: ${required.join(' or ')}. Put the credential in the Token field above (and pick how it is sent).`),
  );
}

function schemeText(scheme: SecurityScheme): string {
  const s = scheme.scheme;
  switch (s?.$case) {
    case 'apiKeySecurityScheme':
      return `API key in the ${s.value.location} "${s.value.name}"`;
    case 'httpAuthSecurityScheme':
      return `HTTP ${s.value.scheme}${s.value.bearerFormat ? ` (${s.value.bearerFormat})` : ''}`;
    case 'openIdConnectSecurityScheme':
      return `OpenID Connect: ${s.value.openIdConnectUrl}`;
    case 'oauth2SecurityScheme':
      return 'OAuth 2.0';
    case 'mtlsSecurityScheme':
      return 'Mutual TLS';
    default:
      return JSON.stringify(SecurityScheme.toJSON(scheme));
  }
}
