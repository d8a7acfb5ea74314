/**
 * Body limits as the node:http listener reads them off the socket: a body announced by
 * Content-Length and a chunked one (no Content-Length, the limit trips while reading) are
 * refused by different code in `nodeExchangeRequest`, which only a real socket reaches. The
 * rest of the JSON-RPC and REST bindings is tested in-process in packages/jsonrpc/test and
 * packages/rest/test.
 */
import { postRaw, rpc, sendParams, startTestServer, V } from './helpers.js';

describe('JSON-RPC body limits over node:http', () => {
  it('oversize bodies → 413 with a JSON-RPC error, Content-Length or not', async () => {
    const s = await startTestServer({ maxBodyBytes: 1024 });
    try {
      const big = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'SendMessage', params: sendParams('x'.repeat(2000)) });
      const res = await postRaw(s.rpcUrl, big);
      expect(res.status).toBe(413);
      expect(res.body.error.data[0].reason).toBe('PAYLOAD_TOO_LARGE');
      // chunked: no Content-Length, the limit trips while reading
      const chunked = await fetch(s.rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...V },
        body: new Blob([big]).stream(),
        duplex: 'half',
      } as RequestInit);
      expect(chunked.status).toBe(413);
      expect((await rpc(s.rpcUrl, 'ListTasks', {})).body.result).toBeDefined();
    } finally {
      await s.close();
    }
  });
});
