import { DynamoDBClient, type DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import { DYNAMO_TABLE_NAME, DYNAMO_TABLE_NAME_RULE } from './table-name.js';

/** How to reach DynamoDB. */
export interface DynamoOptions {
  /** Table holding tasks and push configs (created by {@link migrateDynamo} when missing). */
  readonly table: string;
  /**
   * Endpoint URL, for DynamoDB Local, dynalite or a VPC endpoint. Unset: the region's AWS
   * endpoint.
   */
  readonly endpoint?: string;
  /** AWS region. Unset: the SDK's own resolution (`AWS_REGION`, shared config). */
  readonly region?: string;
  /** Static credentials (tests, local emulators). Unset: the SDK's default provider chain. */
  readonly credentials?: { readonly accessKeyId: string; readonly secretAccessKey: string; readonly sessionToken?: string };
  /** How long a request waits for a connection before it fails with Unavailable. Default 5 s. */
  readonly connectTimeoutMs?: number;
  /** Client-side bound of one request, so a hung endpoint fails requests instead of holding them. Default 10 s. */
  readonly requestTimeoutMs?: number;
}

/**
 * A DynamoDB client set up like the PostgreSQL pool: bounded waits for a connection and for
 * each request, and the SDK's retries (3 attempts) for throttling. With an explicit
 * `endpoint`, FIPS and dual-stack are pinned off so the SDK resolves nothing for them.
 */
export function createDynamoClient(options: Omit<DynamoOptions, 'table'>): DynamoDBClient {
  const config: DynamoDBClientConfig = {
    maxAttempts: 3,
    requestHandler: { connectionTimeout: options.connectTimeoutMs ?? 5000, requestTimeout: options.requestTimeoutMs ?? 10_000 },
  };
  if (options.region) config.region = options.region;
  if (options.credentials) config.credentials = { ...options.credentials };
  if (options.endpoint) Object.assign(config, { endpoint: options.endpoint, useFipsEndpoint: false, useDualstackEndpoint: false });
  return new DynamoDBClient(config);
}

/** Returns `table`, or throws when DynamoDB would refuse the name (see {@link DYNAMO_TABLE_NAME}). */
export function checkTableName(table: string): string {
  if (!DYNAMO_TABLE_NAME.test(table)) throw new Error(`Invalid DynamoDB table name ${JSON.stringify(table)}: use ${DYNAMO_TABLE_NAME_RULE}`);
  return table;
}
