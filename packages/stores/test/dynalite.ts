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

/** The dummy identity the SDK's default credential chain finds in the environment (no AWS config, no metadata service). */
const DUMMY_AWS_ENV = { AWS_ACCESS_KEY_ID: 'test', AWS_SECRET_ACCESS_KEY: 'test', AWS_EC2_METADATA_DISABLED: 'true' };

/**
 * {@link useDynalite} for code that makes its own client through the SDK's default credential
 * chain (the executor): the dummy identity is in `process.env` for the suite (or the enclosing
 * describe), and the variables are put back as they were after it.
 */
export function useDynaliteWithEnvCredentials(): () => LocalDynamo {
  const saved: Record<string, string | undefined> = {};
  beforeAll(() => {
    for (const [name, value] of Object.entries(DUMMY_AWS_ENV)) {
      saved[name] = process.env[name];
      process.env[name] = value;
    }
  });
  const local = useDynalite();
  afterAll(() => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });
  return local;
}
