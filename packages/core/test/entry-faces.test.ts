import * as agent from '@a2a-polyglot/core/agent';
import * as binding from '@a2a-polyglot/core/binding';
import * as observability from '@a2a-polyglot/core/observability';
import * as store from '@a2a-polyglot/core/store';
import * as core from '../src/index.js';
import { OPERATION_TYPES, operationMethodName } from '../src/operation-types.js';

const FACES = { agent, store, binding, observability } as const;
/** What the entry point exports besides the faces (marked @internal there). */
const INTERNAL = ['isIpAddress', 'isLoopbackAddress'];

describe('the entry point of core', () => {
  it('is the union of its four faces and the internal names, each name in one face only', () => {
    const owners = new Map<string, string[]>();
    for (const [face, exports] of Object.entries(FACES)) {
      for (const name of Object.keys(exports)) owners.set(name, [...(owners.get(name) ?? []), face]);
    }
    expect([...owners].filter(([, faces]) => faces.length > 1)).toEqual([]);
    expect(Object.keys(core).sort()).toEqual([...owners.keys(), ...INTERNAL].sort());
  });

  it('keeps module internals out of the faces', () => {
    for (const name of ['observeUnary', 'runIntercepted', 'bindOperationLogger', 'OPERATION_TYPES', 'followTask']) {
      expect(Object.keys(core)).not.toContain(name);
    }
  });
});

describe('the operation table', () => {
  it('dispatches every operation to the handler method of its name', () => {
    for (const name of Object.keys(OPERATION_TYPES) as (keyof typeof OPERATION_TYPES)[]) {
      const op = core.OPERATIONS[name];
      expect(op.name).toBe(name);
      expect(op.kind).toBe(OPERATION_TYPES[name].kind);
      expect(typeof core.RequestHandler.prototype[operationMethodName(name)]).toBe('function');
    }
  });

  it('marks exactly the reads as retryable', () => {
    const reads = Object.values(core.OPERATIONS)
      .filter((op) => op.readOnly)
      .map((op) => op.name)
      .sort();
    expect(reads).toEqual(['GetExtendedAgentCard', 'GetTask', 'GetTaskPushNotificationConfig', 'ListTaskPushNotificationConfigs', 'ListTasks']);
  });
});
