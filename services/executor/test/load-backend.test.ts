/**
 * The storage drivers are optional: a backend is loaded only when selected, and a missing
 * driver is reported as the package to install, not as a bare "Cannot find module".
 */
import { BACKEND_DRIVERS, loadBackend } from '../src/load-backend.js';

/** Node's error for a package that is not installed. */
function notInstalled(name: string): Error {
  return Object.assign(new Error(`Cannot find module '${name}'\nRequire stack:\n- /app/node_modules/@a2a-polyglot/stores/dist/x.js`), {
    code: 'MODULE_NOT_FOUND',
  });
}

describe('loadBackend', () => {
  afterEach(() => {
    jest.resetModules();
  });

  it('loads an installed backend', () => {
    expect(typeof loadBackend('sqlite').openSqlite).toBe('function');
  });

  it.each(Object.entries(BACKEND_DRIVERS))('names the package to install when the %s driver (%s) is missing', (backend, driver) => {
    jest.isolateModules(() => {
      jest.doMock(driver, () => {
        throw notInstalled(driver);
      });
      const { loadBackend: load } = require('../src/load-backend.js') as typeof import('../src/load-backend.js');
      expect(() => load(backend as keyof typeof BACKEND_DRIVERS)).toThrow(
        `The ${backend} backend needs the ${driver} package, an optional dependency that is not installed: npm install ${driver}`,
      );
    });
  });

  it('passes other failures through unchanged', () => {
    jest.isolateModules(() => {
      jest.doMock('pg', () => {
        throw notInstalled('pg-native');
      });
      const { loadBackend: load } = require('../src/load-backend.js') as typeof import('../src/load-backend.js');
      expect(() => load('postgres')).toThrow("Cannot find module 'pg-native'");
    });
  });
});
