import { execFile } from 'node:child_process';
import path from 'node:path';
import type { JWK } from 'jose';

/**
 * What the official SDK (@a2a-js/sdk 1.3.0) is asked to do with agent card signatures:
 * - `canonical`: its `canonicalizeAgentCard` of `card`;
 * - `sign`: its `generateAgentCardSignature` over `card` with `privateJwk` (header `{alg, kid, typ: JOSE}`);
 * - `verify`: its `verifyAgentCardSignature` of `card`, keys looked up by `kid` in `keys`;
 * - `resolve-verify`: its client as an SDK user builds it: `ClientFactory.createFromUrl(url)`
 *   resolves the card, then `client.getAgentCard(undefined, verifier)` verifies it: the
 *   extended card when the card offers one (`headers`, e.g. credentials, go on every request).
 */
export type SdkCardRequest =
  | { readonly op: 'canonical'; readonly card: unknown }
  | { readonly op: 'sign'; readonly card: unknown; readonly privateJwk: JWK; readonly kid: string; readonly alg: string }
  | { readonly op: 'verify'; readonly card: unknown; readonly keys: readonly JWK[] }
  | { readonly op: 'resolve-verify'; readonly url: string; readonly keys: readonly JWK[]; readonly headers?: Readonly<Record<string, string>> };

/** The SDK's answer: its result, or the message of the error it threw. */
export type SdkCardAnswer = { readonly ok: true; readonly result: unknown } | { readonly ok: false; readonly error: string };

/**
 * The SDK runs in its own Node process, as an ES module: its CommonJS build `require`s jose 6,
 * which is ESM-only and which jest's module runtime cannot load (other interop tests stub jose
 * for that reason). A real process keeps the SDK's own signature code and its own jose in play,
 * which is the point of an interop test.
 */
const SCRIPT = `
import { canonicalizeAgentCard, generateAgentCardSignature, verifyAgentCardSignature } from '@a2a-js/sdk';
import { ClientFactory, DefaultAgentCardResolver, JsonRpcTransportFactory, RestTransportFactory } from '@a2a-js/sdk/client';
import * as jose from 'jose';
// The SDK logs failed checks with console.debug: keep stdout for the answer.
for (const level of ['log', 'info', 'debug', 'warn']) console[level] = (...args) => process.stderr.write(args.map(String).join(' ') + '\\n');
const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const input = JSON.parse(Buffer.concat(chunks).toString('utf8'));
const keyOf = (keys) => async (kid) => {
  const jwk = keys.find((k) => k.kid === kid);
  if (!jwk) throw new Error('no key ' + kid);
  return jose.importJWK(jwk, jwk.alg);
};
try {
  let result;
  if (input.op === 'canonical') result = canonicalizeAgentCard(input.card);
  if (input.op === 'sign') {
    const key = await jose.importJWK(input.privateJwk, input.alg);
    result = await generateAgentCardSignature(key, { alg: input.alg, kid: input.kid, typ: 'JOSE' })(input.card);
  }
  if (input.op === 'verify') {
    await verifyAgentCardSignature(keyOf(input.keys))(input.card);
    result = 'verified';
  }
  if (input.op === 'resolve-verify') {
    const fetchImpl = (url, init = {}) => fetch(url, { ...init, headers: { ...Object.fromEntries(new Headers(init.headers)), ...(input.headers ?? {}) } });
    const factory = new ClientFactory({
      transports: [new JsonRpcTransportFactory({ fetchImpl }), new RestTransportFactory({ fetchImpl })],
      cardResolver: new DefaultAgentCardResolver({ fetchImpl }),
    });
    const client = await factory.createFromUrl(input.url);
    const card = await client.getAgentCard(undefined, verifyAgentCardSignature(keyOf(input.keys)));
    result = { name: card.name, skills: (card.skills ?? []).map((s) => s.id), signatures: card.signatures?.length ?? 0 };
  }
  process.stdout.write(JSON.stringify({ ok: true, result }));
} catch (error) {
  process.stdout.write(JSON.stringify({ ok: false, error: String(error && error.message || error) }));
}
`;

/** The repository root, where `@a2a-js/sdk` and its jose resolve. */
const ROOT = path.resolve(__dirname, '../../..');

/** Runs one {@link SdkCardRequest} through the official SDK in a child process (bounded to 20 s). */
export function sdkCardSignature(request: SdkCardRequest): Promise<SdkCardAnswer> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      process.execPath,
      ['--no-warnings', '--input-type=module', '-e', SCRIPT],
      { cwd: ROOT, timeout: 20_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error && !stdout) return reject(new Error(`the SDK process failed: ${error.message}\n${stderr}`));
        try {
          resolve(JSON.parse(stdout) as SdkCardAnswer);
        } catch {
          reject(new Error(`the SDK process printed no answer: ${stdout}\n${stderr}`));
        }
      },
    );
    child.stdin?.end(JSON.stringify(request));
  });
}
