import fc from 'fast-check';
import { grpcFuzzer } from './grpc-fuzzer.js';
import { startFuzzTarget } from './target.js';
async function main() {
  const t = await startFuzzTarget();
  const known = ['x'];
  const inputs = fc.sample(grpcFuzzer.inputs(known), { numRuns: 2000, seed: 20261201 + 1000 + 2 });
  for (const input of inputs) {
    const f = await grpcFuzzer.run(input, t);
    if (f.length) console.log(JSON.stringify(f), JSON.stringify(input.headers), input.path, input.data.length);
  }
  await t.close();
}
void main();
