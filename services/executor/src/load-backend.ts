/**
 * The storage drivers (better-sqlite3, pg, the DynamoDB SDK, ioredis) are optional peer
 * dependencies of the executor, as of `@a2a-polyglot/stores`: a deployment installs only the
 * driver it configures, so the in-memory default never builds better-sqlite3's native addon.
 * This module is the one place a backend is loaded, and it turns "the driver is not
 * installed" into an error that says which package to install.
 */

/** The driver package each backend subpath of `@a2a-polyglot/stores` needs. */
export const BACKEND_DRIVERS = {
  sqlite: 'better-sqlite3',
  postgres: 'pg',
  dynamodb: '@aws-sdk/client-dynamodb',
  redis: 'ioredis',
} as const;

/** A backend the configuration can select. */
export type Backend = keyof typeof BACKEND_DRIVERS;

interface BackendModules {
  sqlite: typeof import('@a2a-polyglot/stores/sqlite');
  postgres: typeof import('@a2a-polyglot/stores/postgres');
  dynamodb: typeof import('@a2a-polyglot/stores/dynamodb');
  redis: typeof import('@a2a-polyglot/stores/redis');
}

// Literal require() calls (not a template) so tools that follow requires still see each one.
const LOADERS: { readonly [B in Backend]: () => BackendModules[B] } = {
  sqlite: () => require('@a2a-polyglot/stores/sqlite'),
  postgres: () => require('@a2a-polyglot/stores/postgres'),
  dynamodb: () => require('@a2a-polyglot/stores/dynamodb'),
  redis: () => require('@a2a-polyglot/stores/redis'),
};

/**
 * Loads a backend of `@a2a-polyglot/stores` when the configuration selects it. Throws, when
 * its driver is not installed, `The sqlite backend needs the better-sqlite3 package ...: npm
 * install better-sqlite3` instead of a bare "Cannot find module".
 */
export function loadBackend<B extends Backend>(backend: B): BackendModules[B] {
  try {
    return LOADERS[backend]();
  } catch (error) {
    const driver = BACKEND_DRIVERS[backend];
    if (isMissingModule(error, driver)) {
      throw new Error(`The ${backend} backend needs the ${driver} package, an optional dependency that is not installed: npm install ${driver}`, {
        cause: error,
      });
    }
    throw error;
  }
}

/** True for Node's (and jest's) "Cannot find module '<name>'" about that very package. */
function isMissingModule(error: unknown, name: string): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === 'MODULE_NOT_FOUND' && (error as Error).message.startsWith(`Cannot find module '${name}'`);
}
