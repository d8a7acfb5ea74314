import { checkReadiness, ERROR_INFO_TYPE } from '@a2a-polyglot/core';
import { type HealthCheckResponse, HealthCheckResponse_ServingStatus as Status, HealthClient } from '@a2a-polyglot/model/grpc';
import { credentials, type ServiceError, status as GrpcCode } from '@grpc/grpc-js';
import { grpcFrame, rawGrpcCall, waitFor } from '@a2a-polyglot/testing';
import { ErrorInfo, Status as RpcStatus } from '@a2a-polyglot/model/rpc';
import { startTestServer, type TestServer } from './helpers.js';

function check(client: InstanceType<typeof HealthClient>, service: string): Promise<HealthCheckResponse> {
  return new Promise((resolve, reject) => client.check({ service }, (error, response) => (error ? reject(error) : resolve(response!))));
}

describe('grpc.health.v1.Health', () => {
  let t: TestServer;
  let client: InstanceType<typeof HealthClient>;
  afterEach(async () => {
    client?.close();
    await t?.close();
  });

  it('Check: SERVING for the server and the A2A services, NOT_FOUND for other names, NOT_SERVING while draining', async () => {
    t = await startTestServer();
    client = new HealthClient(t.url, credentials.createInsecure());
    for (const name of ['', 'lf.a2a.v1.A2AService', 'lf.a2a.v1.A2ASessionService']) {
      expect((await check(client, name)).status).toBe(Status.SERVING);
    }
    await expect(check(client, 'no.such.Service')).rejects.toMatchObject({ code: GrpcCode.NOT_FOUND } satisfies Partial<ServiceError>);
    const shutdown = t.handler.shutdown(100);
    expect((await check(client, '')).status).toBe(Status.NOT_SERVING);
    await shutdown;
  });

  it('Watch: sends the status, then each change', async () => {
    let healthy = true;
    t = await startTestServer({
      grpc: {
        healthWatchIntervalMs: 10,
        readiness: () =>
          checkReadiness({ draining: () => false, checks: [{ name: 'store', probe: async () => (healthy ? undefined : Promise.reject(new Error('down'))) }] }),
      },
    });
    client = new HealthClient(t.url, credentials.createInsecure());
    const seen: Status[] = [];
    const call = client.watch({ service: '' });
    call.on('data', (r: HealthCheckResponse) => seen.push(r.status));
    call.on('error', () => undefined);
    await waitFor(() => seen.length === 1);
    expect(seen).toEqual([Status.SERVING]);
    healthy = false;
    await waitFor(() => seen.length === 2);
    healthy = true;
    await waitFor(() => seen.length === 3);
    expect(seen).toEqual([Status.SERVING, Status.NOT_SERVING, Status.SERVING]);
    call.cancel();
  });

  it('Watch of an unknown name answers SERVICE_UNKNOWN; close() tells watchers NOT_SERVING', async () => {
    t = await startTestServer();
    client = new HealthClient(t.url, credentials.createInsecure());
    const unknown: Status[] = [];
    const u = client.watch({ service: 'no.such.Service' });
    u.on('data', (r: HealthCheckResponse) => unknown.push(r.status));
    u.on('error', () => undefined);
    const all: Status[] = [];
    const w = client.watch({ service: '' });
    w.on('data', (r: HealthCheckResponse) => all.push(r.status));
    w.on('error', () => undefined);
    const ended = new Promise<void>((resolve) => w.on('end', () => resolve()));
    await waitFor(() => unknown.length === 1 && all.length === 1);
    expect(unknown).toEqual([Status.SERVICE_UNKNOWN]);
    await t.server.close(1000);
    await ended;
    expect(all).toEqual([Status.SERVING, Status.NOT_SERVING]);
  });

  it('malformed request bytes answer INVALID_ARGUMENT with ErrorInfo PARSE_ERROR on Check and Watch (grpc-js alone: INTERNAL)', async () => {
    t = await startTestServer();
    // Field 1 (service), length-delimited, claims 127 bytes but carries 1: truncated.
    for (const rpc of ['Check', 'Watch']) {
      const answer = await rawGrpcCall(t.url, `/grpc.health.v1.Health/${rpc}`, grpcFrame(Buffer.from([0x0a, 0x7f, 0x41])));
      expect(answer.grpcStatus).toBe(GrpcCode.INVALID_ARGUMENT);
      const info = RpcStatus.decode(answer.statusDetails!).details.find((d: { typeUrl: string }) => d.typeUrl === ERROR_INFO_TYPE);
      expect(ErrorInfo.decode(info!.value)).toMatchObject({ reason: 'PARSE_ERROR', metadata: { rpc } });
    }
  });
});
