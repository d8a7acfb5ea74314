/**
 * A real DynamoDB API for the tests: dynalite (in memory), listening on 127.0.0.1 on a free
 * port, reached with a static dummy identity and region so the AWS SDK never looks for AWS
 * configuration or the metadata service. Each suite uses its own table name.
 */
import { createDynamoClient } from '@a2a-polyglot/stores/dynamodb';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

// dynalite ships no types: it returns a node:http server.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const dynalite = require('dynalite') as (options: { createTableMs?: number; deleteTableMs?: number; updateTableMs?: number }) => Server;

/** Settings for a client of the local dynalite (never a real AWS endpoint). */
export interface LocalDynamo {
  readonly endpoint: string;
  readonly client: DynamoDBClient;
  /** Client options for code that makes its own client (the executor). */
  readonly clientOptions: { endpoint: string; region: string; credentials: { accessKeyId: string; secretAccessKey: string } };
  close(): Promise<void>;
}

/** Starts dynalite on 127.0.0.1 (free port) with tables ready in 0 ms. */
export async function startDynalite(): Promise<LocalDynamo> {
  const server = dynalite({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientOptions = { endpoint, region: 'local', credentials: { accessKeyId: 'test', secretAccessKey: 'test' } };
  const client = createDynamoClient(clientOptions);
  return {
    endpoint,
    client,
    clientOptions,
    close: async () => {
      client.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Starts dynalite before the suite (or the enclosing describe) and stops it after; the
 * returned getter gives the running one inside tests and hooks.
 */
export function useDynalite(): () => LocalDynamo {
  let dynamo: LocalDynamo | undefined;
  beforeAll(async () => {
    dynamo = await startDynalite();
  });
  afterAll(async () => {
    await dynamo?.close();
  });
  return () => {
    if (!dynamo) throw new Error('dynalite is not running (useDynalite() hooks run around tests only)');
    return dynamo;
  };
}
