import {
  a2aStateToLite,
  cardSummary,
  LITE_STATES,
  LITE_TO_A2A_STATE,
  liteCardFromAgentCard,
  LiteTaskTranslator,
  liteToSendParams,
  parseLite,
  validateLiteCard,
} from '../src/index.js';

const SKILL_CARD = {
  protocol: 'a2a-lite/1.0',
  agent: { id: 'jiajia', name: '佳佳', framework: 'clawdbot', version: '0.x' },
  skills: [
    { id: 'research', name: '调研助手', description: '收集和分析特定主题的资料', inputModes: ['text'], outputModes: ['text', 'file'] },
    { id: 'podcast-script', name: '播客脚本', description: '创作播客口播稿', inputModes: ['text', 'file'], outputModes: ['text', 'file'] },
  ],
  capabilities: { streaming: false, fileTransfer: true, asyncTasks: false },
  channels: ['discord:jiajia'],
};

describe('A2A-Lite card', () => {
  it('accepts the card of the convention and reports every problem of a bad one', () => {
    expect(validateLiteCard(SKILL_CARD)).toEqual([]);
    expect(
      validateLiteCard({
        protocol: 'a2a/1.0',
        agent: { id: '', framework: 'langchain' },
        skills: [{ id: 's', inputModes: ['smell'] }],
        capabilities: { streaming: 'yes' },
        limits: { maxConcurrentTasks: 1.5 },
        apiKey: 'x',
      }),
    ).toEqual([
      'protocol must look like "a2a-lite/1.0"',
      'agent.id must be a non-empty string',
      'agent.name must be a non-empty string',
      'agent.framework must be clawdbot, openclaw or other',
      'skills[0].name must be a non-empty string',
      'skills[0].description must be a non-empty string',
      'skills[0].inputModes must list modes from text, file, image, audio, video',
      'capabilities.streaming must be true or false',
      'limits.maxConcurrentTasks must be an integer',
      'cards must not carry credentials (found a key that looks like one)',
    ]);
    expect(validateLiteCard([])).toEqual(['the card must be a JSON object']);
  });

  it('describes an A2A agent as an a2a-lite/1.0 card, and summarises it for [A2A:card]', () => {
    const card = liteCardFromAgentCard(
      {
        name: 'Local Assistant',
        description: 'A local model.',
        version: '1.0.0',
        capabilities: { streaming: true },
        defaultInputModes: ['text/plain'],
        defaultOutputModes: ['text/markdown', 'application/pdf'],
        skills: [
          { id: 'chat', name: 'Chat', description: 'Answers questions.' },
          { id: 'see', name: 'See', description: 'Looks at pictures.', inputModes: ['image/png'] },
        ],
      },
      { id: 'assistant', channels: ['a2a:http://127.0.0.1:8080'] },
    );
    expect(validateLiteCard(card)).toEqual([]);
    expect(card.skills).toEqual([
      { id: 'chat', name: 'Chat', description: 'Answers questions.', inputModes: ['text'], outputModes: ['text', 'file'] },
      { id: 'see', name: 'See', description: 'Looks at pictures.', inputModes: ['image'], outputModes: ['text', 'file'] },
    ]);
    expect(cardSummary(card)).toBe(
      'I am Local Assistant.\nA local model.\nMy skills:\n- Chat (chat): Answers questions.\n- See (see): Looks at pictures.\nStreams progress; text only.',
    );
  });
});

describe('mapping to and from the A2A task model', () => {
  it('maps every Lite state to an A2A state and back', () => {
    for (const state of LITE_STATES) expect(a2aStateToLite(LITE_TO_A2A_STATE[state])).toBe(state);
    expect(a2aStateToLite('TASK_STATE_AUTH_REQUIRED')).toBe('input-required');
    expect(a2aStateToLite(undefined)).toBe('working');
  });

  it('turns a Lite task into an A2A message carrying the Lite parameters; ref makes it a follow-up', () => {
    const lite = parseLite('[A2A:task id=research-001 skill=research ref=abc-123]\nPlease research X.');
    if (!lite.isA2A) throw new Error('expected a tag');
    const params = liteToSendParams(lite, { messageId: 'm1', contextId: 'chat-7' });
    expect(params).toEqual({
      message: {
        messageId: 'm1',
        role: 'ROLE_USER',
        parts: [{ text: 'Please research X.' }],
        taskId: 'abc-123',
        contextId: 'chat-7',
        metadata: { a2aLite: { type: 'task', id: 'research-001', skill: 'research', ref: 'abc-123' } },
      },
    });
    expect(liteToSendParams('just text', { messageId: 'm2' })).toEqual({ message: { messageId: 'm2', role: 'ROLE_USER', parts: [{ text: 'just text' }] } });
  });

  it('follows a streamed task: one status per state change, chunks collected into the result', () => {
    const t = new LiteTaskTranslator('r-1');
    const out = [
      { task: { id: 'A', status: { state: 'TASK_STATE_SUBMITTED' } } },
      { statusUpdate: { taskId: 'A', status: { state: 'TASK_STATE_WORKING' } } },
      { artifactUpdate: { taskId: 'A', artifact: { artifactId: 'text-delta', parts: [{ text: 'Hel' }] } } },
      { statusUpdate: { taskId: 'A', status: { state: 'TASK_STATE_WORKING' } } },
      { artifactUpdate: { taskId: 'A', artifact: { artifactId: 'text-delta', parts: [{ text: 'lo' }] }, append: true, lastChunk: true } },
      { statusUpdate: { taskId: 'A', status: { state: 'TASK_STATE_COMPLETED' } } },
      { statusUpdate: { taskId: 'A', status: { state: 'TASK_STATE_FAILED' } } },
    ].flatMap((e) => t.onEvent(e));
    expect(out).toEqual([
      '[A2A:status task=r-1 state=accepted ref=A]',
      '[A2A:status task=r-1 state=working ref=A]',
      '[A2A:result task=r-1 state=completed ref=A]\nHello',
    ]);
    expect(t.done).toBe(true);
  });

  it('asks the question of an input-required task, and reports failure with the partial text', () => {
    const ask = new LiteTaskTranslator('r-2');
    expect(
      ask.onEvent({
        task: { id: 'B', status: { state: 'TASK_STATE_INPUT_REQUIRED', message: { messageId: 'q', role: 'ROLE_AGENT', parts: [{ text: 'Which city?' }] } } },
      }),
    ).toEqual(['[A2A:status task=r-2 state=input-required ref=B]\nWhich city?']);
    const fail = new LiteTaskTranslator('r-3');
    fail.onEvent({
      artifactUpdate: {
        taskId: 'C',
        artifact: { artifactId: 'a', name: 'report', parts: [{ text: 'half a report' }, { url: 'https://x.example/r.pdf', filename: 'r.pdf' }] },
      },
    });
    expect(
      fail.onEvent({
        statusUpdate: {
          taskId: 'C',
          status: { state: 'TASK_STATE_FAILED', message: { messageId: 'f', role: 'ROLE_AGENT', parts: [{ text: 'quota exceeded' }] } },
        },
      }),
    ).toEqual(['[A2A:result task=r-3 state=failed ref=C artifacts=report]\nquota exceeded\n\nPartial result:\nhalf a report\n[attachment: r.pdf]']);
    const direct = new LiteTaskTranslator('r-4');
    expect(direct.onEvent({ message: { messageId: 'm', role: 'ROLE_AGENT', parts: [{ text: 'Sure: 42.' }] } })).toEqual([
      '[A2A:result task=r-4 state=completed]\nSure: 42.',
    ]);
  });
});
