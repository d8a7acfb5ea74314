/**
 * What a test needs to say which ports a process holds: a port nobody listens on right now,
 * whether a connect to a port is refused, and (Linux `/proc`) the TCP sockets a process
 * listens on, whatever their port.
 */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';

/** A port nobody listens on right now (for a listener that takes a fixed address). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Resolves with the connect error's code ('ECONNREFUSED' when nobody listens), or 'connected'. */
export function connectOutcome(port: number, host = '127.0.0.1'): Promise<string> {
  return new Promise((resolve) => {
    const socket = createConnection({ port, host });
    socket.once('connect', () => {
      socket.destroy();
      resolve('connected');
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? String(error)));
  });
}

/** TCP state LISTEN in /proc/net/tcp{,6}. */
const LISTEN = '0A';

/**
 * The local addresses (`hexaddr:hexport`, as /proc/net/tcp writes them) of the TCP sockets
 * process `pid` listens on: the LISTEN rows of /proc/net/tcp and tcp6 whose inode is one of
 * the process's open socket descriptors. Linux only.
 */
export function listeningSockets(pid: number): string[] {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    let target: string;
    try {
      target = readlinkSync(`/proc/${pid}/fd/${fd}`);
    } catch {
      continue; // closed meanwhile
    }
    const socket = /^socket:\[(\d+)\]$/.exec(target);
    if (socket) inodes.add(socket[1]!);
  }
  const listening: string[] = [];
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const row of readFileSync(table, 'utf8').split('\n').slice(1)) {
      const cols = row.trim().split(/\s+/);
      // sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode
      if (cols[3] === LISTEN && inodes.has(cols[9]!)) listening.push(cols[1]!);
    }
  }
  return listening;
}
