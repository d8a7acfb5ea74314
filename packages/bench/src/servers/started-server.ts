/** What a server kind reports once it listens: its ports by binding. */
export interface StartedServer {
  /** e.g. `{ http: 41234, grpc: 41235 }`. */
  readonly ports: Readonly<Record<string, number>>;
  /** Notes for the report (versions, what is mounted where). */
  readonly notes?: readonly string[];
  /** Stops listening and drops open connections (tests; server processes just exit). */
  close?(): Promise<void>;
}

/** Every server listens on loopback only: the benchmark never sends traffic elsewhere. */
export const LOOPBACK = '127.0.0.1';
