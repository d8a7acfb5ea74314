import { readFileSync } from 'node:fs';
import path from 'node:path';
// Relative import on purpose: the root tsconfig `paths` map only `@a2a-polyglot/<pkg>` (not
// sub-path entries), so `@a2a-polyglot/model/grpc` type-checks only after a build.
import { A2AServiceService } from '../src/grpc.js';

const SRC = path.resolve(__dirname, '../src');

/** Every bare (package) import reachable from a source file, following relative imports. */
function packageImports(entry: string): Set<string> {
  const seen = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/(?:import|export)\s[^'"]*?from\s+["']([^"']+)["']/g)) {
      const spec = m[1]!;
      if (spec.startsWith('.')) visit(path.resolve(path.dirname(file), spec.replace(/\.js$/, '.ts')));
      else packages.add(spec);
    }
  };
  visit(path.join(SRC, entry));
  return packages;
}

describe('entry points', () => {
  it('the package root never imports @grpc/grpc-js (browser-safe)', () => {
    const imports = packageImports('index.ts');
    expect([...imports].sort()).toEqual(['@bufbuild/protobuf/wire']);
  });

  it('the ./rpc entry (google.rpc error details) imports only the protobuf runtime', () => {
    expect([...packageImports('rpc.ts')].sort()).toEqual(['@bufbuild/protobuf/wire']);
  });

  it('the ./grpc entry imports @grpc/grpc-js', () => {
    expect(packageImports('grpc.ts')).toContain('@grpc/grpc-js');
  });

  it('A2AServiceService has the 11 v1.0 RPCs under /lf.a2a.v1.A2AService/', () => {
    const methods = Object.values(A2AServiceService).map((m) => `${m.path}${m.responseStream ? ' (stream)' : ''}`);
    expect(methods).toEqual([
      '/lf.a2a.v1.A2AService/SendMessage',
      '/lf.a2a.v1.A2AService/SendStreamingMessage (stream)',
      '/lf.a2a.v1.A2AService/GetTask',
      '/lf.a2a.v1.A2AService/ListTasks',
      '/lf.a2a.v1.A2AService/CancelTask',
      '/lf.a2a.v1.A2AService/SubscribeToTask (stream)',
      '/lf.a2a.v1.A2AService/CreateTaskPushNotificationConfig',
      '/lf.a2a.v1.A2AService/GetTaskPushNotificationConfig',
      '/lf.a2a.v1.A2AService/ListTaskPushNotificationConfigs',
      '/lf.a2a.v1.A2AService/DeleteTaskPushNotificationConfig',
      '/lf.a2a.v1.A2AService/GetExtendedAgentCard',
    ]);
    expect(Object.values(A2AServiceService).every((m) => !m.requestStream)).toBe(true);
  });

  it('DeleteTaskPushNotificationConfig answers google.protobuf.Empty (zero bytes)', () => {
    expect(A2AServiceService.deleteTaskPushNotificationConfig.responseSerialize({})).toHaveLength(0);
  });
});
