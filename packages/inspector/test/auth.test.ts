/**
 * The page's auth fields: header lines typed by hand (`Name: value`) and header names checked
 * before anything is sent, so a typo is said plainly instead of failing inside fetch.
 */
import { headerNameProblem, parseHeaderLines, secretHeaderNames } from '../web/auth.js';
import { prettyJson } from '../web/json-text.js';
import { shortId } from '../web/ids.js';

describe('auth fields', () => {
  it('parses Name: value lines, skipping blanks and # comments; values may hold colons', () => {
    expect(parseHeaderLines('X-Tenant: blue\n\n# a comment\n  X-Trace :  http://a/b  \r\n')).toEqual({
      headers: { 'X-Tenant': 'blue', 'X-Trace': 'http://a/b' },
    });
    expect(parseHeaderLines('')).toEqual({ headers: {} });
  });

  it('names the first line that is not a header', () => {
    expect(parseHeaderLines('X-Ok: 1\nno colon here')).toEqual({ error: 'Header line 2 is not "Name: value".' });
    expect(parseHeaderLines(': empty name')).toEqual({ error: 'Header line 1 is not "Name: value".' });
    expect(parseHeaderLines('Bad Name: 1')).toEqual({ error: expect.stringMatching(/^Header line 1: "Bad Name" is not a header name/) });
  });

  it('checks header names (RFC 9110 tokens)', () => {
    expect(headerNameProblem('X-API-Key')).toBeUndefined();
    expect(headerNameProblem('')).toBe('The header name is empty.');
    expect(headerNameProblem('x api key')).toMatch(/is not a header name/);
    expect(headerNameProblem('X:Key')).toMatch(/is not a header name/);
  });

  it('the credential header is a secret only when the token goes in it', () => {
    expect(secretHeaderNames({ token: 't', kind: 'header', headerName: 'X-Team-Key', headers: {} })).toEqual(['X-Team-Key']);
    expect(secretHeaderNames({ token: 't', kind: 'bearer', headerName: 'X-API-Key', headers: {} })).toEqual([]);
  });
});

describe('raw pane and task list text', () => {
  it('pretty-prints JSON bodies, leaves anything else as it is', () => {
    expect(prettyJson('{"a":[1,2]}')).toBe('{\n  "a": [\n    1,\n    2\n  ]\n}');
    expect(prettyJson('{"a":')).toBe('{"a":');
    expect(prettyJson('plain text')).toBe('plain text');
  });

  it('shortens long ids to their first 8 characters, keeps short ones', () => {
    expect(shortId('0b5c1f3e-2f7a-4c1e-9d7b-1a2b3c4d5e6f')).toBe('0b5c1f3e…');
    expect(shortId('task-1')).toBe('task-1');
    expect(shortId('123456789')).toBe('123456789');
  });
});
