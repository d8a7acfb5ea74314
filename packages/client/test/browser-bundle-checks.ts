import type { BuildOptions } from 'esbuild';

/**
 * esbuild options of a browser bundle, as the browser-bundle checks (sources and the packed
 * package) make it: `platform: 'browser'` fails the build on any Node built-in; the metafile
 * lists every input, for the checks below.
 */
export const BROWSER_BUNDLE = {
  bundle: true,
  platform: 'browser',
  format: 'esm',
  write: false,
  metafile: true,
  logLevel: 'silent',
} as const satisfies BuildOptions;

/**
 * What "gRPC code" means for the browser-bundle checks (sources and the packed package):
 * grpc-js itself, our gRPC binding, the client's gRPC transport, or the model's generated gRPC
 * service definitions. The main entry of the client must contain none of it.
 */

/** True when an esbuild metafile input path is gRPC code. */
export function isGrpcInput(input: string): boolean {
  return /grpc-js|packages\/grpc\/|@a2a-polyglot\/grpc\/|transports\/grpc|model\/(?:src|dist(?:\/esm)?)\/(?:grpc|gen\/grpc\/|gen\/.*a2a_service)/.test(input);
}

/** Text that only gRPC code carries: grpc-js's client factory, its module name, gRPC method paths. */
export const GRPC_ONLY_TEXT = /makeGenericClientConstructor|@grpc\/grpc-js|\.A2AService\//;
