/** Protocol id an A2A-Lite card carries. */
export const LITE_PROTOCOL = 'a2a-lite/1.0';

const MODES = ['text', 'file', 'image', 'audio', 'video'] as const;
/** A content mode of an A2A-Lite skill. */
export type LiteMode = (typeof MODES)[number];

/** An A2A-Lite agent card (`agent-card.json`, protocol `a2a-lite/<major>.<minor>`). */
export interface LiteCard {
  readonly protocol: string;
  readonly agent: { readonly id: string; readonly name: string; readonly framework: 'clawdbot' | 'openclaw' | 'other'; readonly version?: string };
  readonly description?: string;
  readonly skills: ReadonlyArray<{
    readonly id: string;
    readonly name: string;
    readonly description: string;
    readonly inputModes?: readonly LiteMode[];
    readonly outputModes?: readonly LiteMode[];
  }>;
  readonly capabilities?: {
    readonly streaming?: boolean;
    readonly fileTransfer?: boolean;
    readonly asyncTasks?: boolean;
    readonly pushNotifications?: boolean;
  };
  readonly limits?: { readonly maxFileSize?: string; readonly maxConcurrentTasks?: number };
  readonly channels?: readonly string[];
  readonly contact?: { readonly human?: string; readonly timezone?: string };
}

/**
 * Checks an A2A-Lite card; returns the problems (empty when valid), each naming the field.
 * Why a list, not an exception: a peer's cached card is advisory, so callers decide whether a
 * problem matters. `channels` is optional here (the schema's reading); cards must not carry
 * credentials, so keys that look like secrets are reported too.
 */
export function validateLiteCard(value: unknown): string[] {
  const problems: string[] = [];
  const obj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  const str = (v: unknown) => typeof v === 'string' && v.trim() !== '';
  if (!obj(value)) return ['the card must be a JSON object'];
  if (typeof value.protocol !== 'string' || !/^a2a-lite\/\d+\.\d+$/.test(value.protocol)) problems.push('protocol must look like "a2a-lite/1.0"');
  if (!obj(value.agent)) problems.push('agent must be an object with id, name and framework');
  else {
    if (!str(value.agent.id)) problems.push('agent.id must be a non-empty string');
    if (!str(value.agent.name)) problems.push('agent.name must be a non-empty string');
    if (!['clawdbot', 'openclaw', 'other'].includes(value.agent.framework as string)) problems.push('agent.framework must be clawdbot, openclaw or other');
    if (value.agent.version !== undefined && typeof value.agent.version !== 'string') problems.push('agent.version must be a string');
  }
  if (value.description !== undefined && typeof value.description !== 'string') problems.push('description must be a string');
  if (!Array.isArray(value.skills)) problems.push('skills must be an array');
  else
    value.skills.forEach((skill, i) => {
      if (!obj(skill)) {
        problems.push(`skills[${i}] must be an object`);
        return;
      }
      for (const key of ['id', 'name', 'description']) if (!str(skill[key])) problems.push(`skills[${i}].${key} must be a non-empty string`);
      for (const key of ['inputModes', 'outputModes']) {
        const modes = skill[key];
        if (modes !== undefined && !(Array.isArray(modes) && modes.every((m) => (MODES as readonly unknown[]).includes(m))))
          problems.push(`skills[${i}].${key} must list modes from ${MODES.join(', ')}`);
      }
    });
  if (value.capabilities !== undefined) {
    if (!obj(value.capabilities)) problems.push('capabilities must be an object');
    else for (const [k, v] of Object.entries(value.capabilities)) if (typeof v !== 'boolean') problems.push(`capabilities.${k} must be true or false`);
  }
  if (value.limits !== undefined) {
    if (!obj(value.limits)) problems.push('limits must be an object');
    else {
      if (value.limits.maxFileSize !== undefined && typeof value.limits.maxFileSize !== 'string')
        problems.push('limits.maxFileSize must be a string such as "10MB"');
      if (value.limits.maxConcurrentTasks !== undefined && !Number.isInteger(value.limits.maxConcurrentTasks))
        problems.push('limits.maxConcurrentTasks must be an integer');
    }
  }
  if (value.channels !== undefined && !(Array.isArray(value.channels) && value.channels.every((c) => typeof c === 'string')))
    problems.push('channels must be an array of strings');
  if (/"(api[_-]?key|token|secret|password)"\s*:/i.test(JSON.stringify(value)))
    problems.push('cards must not carry credentials (found a key that looks like one)');
  return problems;
}

/** The fields of an A2A agent card (ProtoJSON) this mapping reads. */
export interface A2ACardJson {
  readonly name?: string;
  readonly description?: string;
  readonly version?: string;
  readonly capabilities?: { readonly streaming?: boolean; readonly pushNotifications?: boolean };
  readonly defaultInputModes?: readonly string[];
  readonly defaultOutputModes?: readonly string[];
  readonly skills?: ReadonlyArray<{
    readonly id?: string;
    readonly name?: string;
    readonly description?: string;
    readonly inputModes?: readonly string[];
    readonly outputModes?: readonly string[];
  }>;
}

/**
 * An A2A-Lite card describing an A2A agent, so a Lite peer can cache it like any other:
 * skills and capabilities carried over, media types folded into Lite modes
 * (`text/*` → text, `image/*` → image, …, anything else → file). An A2A agent runs tasks
 * asynchronously by design, hence `asyncTasks: true`.
 */
export function liteCardFromAgentCard(
  card: A2ACardJson,
  options: { readonly id: string; readonly framework?: LiteCard['agent']['framework']; readonly channels?: readonly string[] },
): LiteCard {
  const modes = (types: readonly string[] | undefined, fallback: readonly string[] | undefined): LiteMode[] | undefined => {
    const list = types && types.length > 0 ? types : fallback;
    if (!list || list.length === 0) return undefined;
    return [...new Set(list.map(modeOf))];
  };
  return {
    protocol: LITE_PROTOCOL,
    agent: { id: options.id, name: card.name || options.id, framework: options.framework ?? 'other', ...(card.version && { version: card.version }) },
    ...(card.description && { description: card.description }),
    skills: (card.skills ?? []).map((s, i) => {
      const inputModes = modes(s.inputModes, card.defaultInputModes);
      const outputModes = modes(s.outputModes, card.defaultOutputModes);
      return {
        id: s.id || `skill-${i + 1}`,
        name: s.name || s.id || `Skill ${i + 1}`,
        description: s.description || s.name || 'No description',
        ...(inputModes && { inputModes }),
        ...(outputModes && { outputModes }),
      };
    }),
    capabilities: {
      streaming: card.capabilities?.streaming ?? false,
      asyncTasks: true,
      pushNotifications: card.capabilities?.pushNotifications ?? false,
      fileTransfer: false,
    },
    ...(options.channels && { channels: [...options.channels] }),
  };
}

function modeOf(mediaType: string): LiteMode {
  const [type = ''] = mediaType.split('/');
  const top = type.toLowerCase();
  if (top === 'text' || mediaType === 'application/json') return 'text';
  if (top === 'image' || top === 'audio' || top === 'video') return top;
  return 'file';
}

/** The natural-language body of a `[A2A:card]` reply: who the agent is and what it can do. */
export function cardSummary(card: LiteCard): string {
  const lines = [`I am ${card.agent.name}${card.agent.framework !== 'other' ? `, running on ${card.agent.framework}` : ''}.`];
  if (card.description) lines.push(card.description);
  if (card.skills.length > 0) {
    lines.push('My skills:');
    for (const s of card.skills) lines.push(`- ${s.name} (${s.id}): ${s.description}`);
  }
  const caps = card.capabilities ?? {};
  lines.push(`${caps.streaming ? 'Streams progress' : 'No streaming'}; ${caps.fileTransfer ? 'accepts files' : 'text only'}.`);
  return lines.join('\n');
}
