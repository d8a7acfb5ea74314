/** One step of a store's schema, applied once, in order, inside a transaction. */
export interface Migration {
  readonly version: number;
  readonly name: string;
  /** SQL statements, run in order. */
  readonly statements: readonly string[];
}

/** What a migration run did. */
export interface MigrationResult {
  /** Schema version before the run (0: empty database). */
  readonly from: number;
  /** Schema version after the run: the latest this build knows. */
  readonly to: number;
}

/** The version the last of `migrations` brings a store to (0 when there are none). */
export function latestVersion(migrations: readonly Pick<Migration, 'version'>[]): number {
  return migrations[migrations.length - 1]?.version ?? 0;
}

/** Checks the recorded version against what this build knows, and returns the steps still to apply. */
export function pendingMigrations(migrations: readonly Migration[], current: number, where: string): Migration[] {
  const latest = latestVersion(migrations);
  if (current > latest) {
    throw new Error(`${where} is at schema version ${current}, newer than this build knows (${latest}); upgrade A2A Polyglot or use another database`);
  }
  return migrations.filter((m) => m.version > current);
}
