import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/api/client.js';

/** A real HTTP server answering `{}` that counts the connections it was opened and those still open. */
async function countingServer() {
  const open = new Set<Socket>();
  const sites: string[] = [];
  let opened = 0;
  const server = http.createServer((req, res) => {
    sites.push(String(req.headers['wix-site-id']));
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{}');
  });
  // Idle connections stay open for the test's length: only the client closes them.
  server.keepAliveTimeout = 60_000;
  server.on('connection', (socket: Socket) => {
    opened += 1;
    open.add(socket);
    socket.on('close', () => open.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    sites,
    opened: () => opened,
    open: () => open.size,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Polls until `check` holds (sockets close asynchronously); fails after 5 s. */
async function until(check: () => boolean): Promise<void> {
  const end = Date.now() + 5000;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met within 5 s');
    await new Promise((r) => setTimeout(r, 10));
  }
}

let server: Awaited<ReturnType<typeof countingServer>> | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('clients of many sites share one dispatcher (docs/architecture.md "Runtime and memory")', () => {
  it('50 sites called one after another share one pool (not one connection per site), closed with the last client', async () => {
    server = await countingServer();
    const base = new ApiClient({ baseUrl: server.url, credentials: { kind: 'apiKey', apiKey: 'k', siteId: 'site-0' }, pacers: false });
    const others = Array.from({ length: 50 }, (_, i) => base.forSite(`site-${i + 1}`));
    for (const api of others) await api.request({ method: 'GET', path: '/x' });
    expect(server.sites).toEqual(others.map((_, i) => `site-${i + 1}`));
    // A client of its own per site made a pool, and a connection, per site (50). Shared, undici keeps at most
    // two here: the next call may go out before the previous reply's socket is back in the pool.
    expect(server.opened()).toBeLessThanOrEqual(2);
    const opened = server.opened();
    // The base closed first (as a --site client is once its site's client is made): the others still work.
    await base.close();
    await others[0]!.request({ method: 'GET', path: '/y' });
    for (const api of others.slice(0, -1)) await api.close();
    expect(server.open()).toBe(opened);
    await others.at(-1)!.close();
    await until(() => server!.open() === 0);
    expect(server.opened()).toBe(opened);
  });

  it('a client used again after its close opens the dispatcher again, and its next close closes it', async () => {
    server = await countingServer();
    const base = new ApiClient({ baseUrl: server.url, credentials: { kind: 'apiKey', apiKey: 'k', siteId: 'a' }, pacers: false });
    const other = base.forSite('b');
    await other.request({ method: 'GET', path: '/x' });
    await other.close();
    await other.close(); // a second close does not release the base's hold
    await base.request({ method: 'GET', path: '/x' });
    expect(server.open()).toBeGreaterThan(0);
    const opened = server.opened();
    await other.request({ method: 'GET', path: '/x' });
    await base.close();
    expect(server.open()).toBeGreaterThan(0);
    await other.close();
    await until(() => server!.open() === 0);
    // The base and the reopened other shared one pool: no connection of its own for `other`.
    expect(server.opened()).toBeLessThanOrEqual(opened + 1);
  });
});
