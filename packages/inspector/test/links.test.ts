import { dataUrlBytes, webUrl } from '../web/links.js';

describe('webUrl: only absolute http(s) URLs become links', () => {
  it('keeps http and https URLs', () => {
    expect(webUrl('https://agents.example.com/docs')).toBe('https://agents.example.com/docs');
    expect(webUrl('http://127.0.0.1:8080/.well-known/agent-card.json')).toBe('http://127.0.0.1:8080/.well-known/agent-card.json');
  });

  it('refuses script, data, blob, file and relative URLs, whatever their spelling', () => {
    for (const url of [
      'javascript:alert(1)',
      ' JavaScript:alert(1)',
      'java\tscript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'blob:http://127.0.0.1:8080/0c7c',
      'file:///etc/passwd',
      'vbscript:msgbox(1)',
      '/a2a/tasks',
      '//evil.example/x',
      '',
    ]) {
      expect([url, webUrl(url)]).toEqual([url, undefined]);
    }
  });
});

describe('dataUrlBytes', () => {
  const decoded = (url: string) => {
    const bytes = dataUrlBytes(url);
    return bytes && new TextDecoder().decode(bytes);
  };

  it('decodes base64 and percent-encoded data: URLs', () => {
    expect(decoded('data:text/html;base64,PGI+aGk8L2I+')).toBe('<b>hi</b>');
    expect(decoded('data:text/plain;charset=utf-8;BASE64,aGkh')).toBe('hi!');
    expect(decoded('data:,a%20b%2Cc')).toBe('a b,c');
    expect(decoded('DATA:text/plain,x')).toBe('x');
  });

  it('is undefined for other URLs and undecodable payloads', () => {
    expect(dataUrlBytes('https://example.com/a.txt')).toBeUndefined();
    expect(dataUrlBytes('data:text/plain')).toBeUndefined();
    expect(dataUrlBytes('data:;base64,@@@')).toBeUndefined();
    expect(dataUrlBytes('data:,%E0%A4%A')).toBeUndefined();
  });
});
