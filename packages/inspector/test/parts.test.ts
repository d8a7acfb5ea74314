import { composeParts } from '../web/parts.js';

const empty = { text: '', fileMode: 'raw' as const, fileUrl: '', data: '' };
const file = { name: 'a.txt', type: 'text/plain', bytes: new TextEncoder().encode('hi!') };

describe('composeParts', () => {
  it('text, a file as bytes, a file URL and JSON data, in that order', () => {
    const result = composeParts({ text: 'look', file, fileMode: 'raw', fileUrl: 'https://example.com/r/report.pdf', data: '{"n": [1, 2]}' });
    expect('parts' in result && result.parts.map((p) => [p.content?.$case, p.filename, p.mediaType])).toEqual([
      ['text', '', ''],
      ['raw', 'a.txt', 'text/plain'],
      ['url', 'report.pdf', ''],
      ['data', '', 'application/json'],
    ]);
    expect('parts' in result && result.parts[3]!.content).toEqual({ $case: 'data', value: { n: [1, 2] } });
  });

  it('a file as a URL is a data: URL of its bytes', () => {
    const result = composeParts({ ...empty, file, fileMode: 'url' });
    expect('parts' in result && result.parts[0]!.content).toEqual({ $case: 'url', value: 'data:text/plain;base64,aGkh' });
  });

  it('says what is wrong instead of sending: nothing to send, bad JSON, bad URL', () => {
    expect(composeParts(empty)).toEqual({ error: 'Write some text, pick a file or enter data first.' });
    expect(composeParts({ ...empty, data: '{"n": ' })).toEqual({ error: expect.stringMatching(/^The data is not valid JSON: /) });
    expect(composeParts({ ...empty, fileUrl: 'not a url' })).toEqual({ error: 'The file URL "not a url" is not a URL.' });
  });
});
