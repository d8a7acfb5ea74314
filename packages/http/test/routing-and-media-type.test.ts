import type { IncomingMessage } from 'node:http';
import { responseMediaType, routingPath } from '../src/index.js';

describe('routingPath', () => {
  it('drops one trailing slash and the query, keeps the root', () => {
    expect(routingPath('/a2a/rpc/')).toBe('/a2a/rpc');
    expect(routingPath('/a2a/tasks/?pageSize=1')).toBe('/a2a/tasks');
    expect(routingPath('/a2a/rpc')).toBe('/a2a/rpc');
    expect(routingPath('http://h.test/.well-known/agent-card.json/')).toBe('/.well-known/agent-card.json');
    expect(routingPath('/')).toBe('/');
    expect(routingPath(undefined)).toBe('/');
  });

  it('drops only one: a double slash stays a different path', () => {
    expect(routingPath('/a2a/rpc//')).toBe('/a2a/rpc/');
  });
});

describe('responseMediaType', () => {
  const req = (headers: Record<string, string>) => ({ headers }) as IncomingMessage;

  it('answers in the JSON media type of the request body', () => {
    expect(responseMediaType(req({ 'content-type': 'application/json' }), 'application/a2a+json')).toBe('application/json');
    expect(responseMediaType(req({ 'content-type': 'Application/A2A+JSON; charset=utf-8' }), 'application/json')).toBe('application/a2a+json');
  });

  it('the body type wins over Accept', () => {
    expect(responseMediaType(req({ 'content-type': 'application/json', accept: 'application/a2a+json' }), 'application/a2a+json')).toBe('application/json');
  });

  it('without a JSON body, follows the JSON type Accept ranks highest (first listed on a tie)', () => {
    expect(responseMediaType(req({ accept: 'application/json' }), 'application/a2a+json')).toBe('application/json');
    expect(responseMediaType(req({ accept: 'application/a2a+json, application/json' }), 'application/json')).toBe('application/a2a+json');
    expect(responseMediaType(req({ accept: 'application/a2a+json;q=0.5, application/json' }), 'application/a2a+json')).toBe('application/json');
    expect(responseMediaType(req({ accept: 'application/json;q=0, text/event-stream' }), 'application/a2a+json')).toBe('application/a2a+json');
    expect(responseMediaType(req({ 'content-type': 'text/plain', accept: 'application/json' }), 'application/a2a+json')).toBe('application/json');
  });

  it("falls back to the binding's default for wildcards, other types or no headers", () => {
    expect(responseMediaType(req({}), 'application/a2a+json')).toBe('application/a2a+json');
    expect(responseMediaType(req({ accept: '*/*' }), 'application/json')).toBe('application/json');
    expect(responseMediaType(req({ accept: 'text/event-stream' }), 'application/a2a+json')).toBe('application/a2a+json');
  });
});
