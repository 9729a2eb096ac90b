/**
 * The one-shot callback server of `sitectl login` (docs/sign-in.md "The browser sign-in"): 127.0.0.1 only, one
 * answer, the state checked, the fragment relayed by a page (a browser never sends it).
 */
import { describe, expect, it } from 'vitest';
import { startCallbackServer } from '../../../src/commands/login/callback.js';

describe('login callback server', () => {
  it('listens on 127.0.0.1 only, on a random port', async () => {
    const server = await startCallbackServer(0, 'st');
    try {
      expect(server.redirectUri).toBe(`http://127.0.0.1:${server.port}/callback`);
      expect(server.port).toBeGreaterThan(0);
      // Bound to 127.0.0.1 itself (not every address): another loopback address does not reach it.
      await expect(fetch(`http://127.0.0.2:${server.port}/callback`)).rejects.toThrow();
    } finally {
      await server.close();
    }
  });

  it('relays a fragment with a page, answers the first result once, and closes', async () => {
    const server = await startCallbackServer(0, 'st');
    const relay = await fetch(server.redirectUri);
    expect(relay.status).toBe(200);
    expect(await relay.text()).toContain("location.replace('/callback?' + location.hash.slice(1))");
    // The tab with the code waits until the CLI has exchanged it: then it names who signed in.
    const pending = fetch(`${server.redirectUri}?code=c1&state=st`);
    const params = await server.result;
    expect(params.get('code')).toBe('c1');
    await server.finish({ signedIn: { who: 'ada@example.com', site: 'Down<town>' } });
    const first = await pending;
    expect(first.status).toBe(200);
    const html = await first.text();
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(html).toContain('sitectl is signed in to Down&lt;town&gt; as <strong>ada@example.com</strong>.');
    expect(html).toContain('You can close this tab');
    // Answered once: the server is closed.
    await expect(fetch(`${server.redirectUri}?code=c2&state=st`)).rejects.toThrow();
    await server.close();
  });

  it('a failed exchange is said in the waiting tab; closing without an answer tells the tab the sign-in did not finish', async () => {
    const server = await startCallbackServer(0, 'st');
    const pending = fetch(`${server.redirectUri}?code=c1&state=st`);
    await server.result;
    await server.finish({ failed: 'The code was refused' });
    const res = await pending;
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('<div class="error" role="alert">The code was refused</div>');
    await server.close();

    const other = await startCallbackServer(0, 'st');
    const waiting = fetch(`${other.redirectUri}?code=c1&state=st`);
    await other.result;
    await other.close();
    expect(await (await waiting).text()).toContain('The sign-in did not finish.');
  });

  it.each([
    ['a missing state', '?code=c1', 'Missing code or _state'],
    ['a wrong state', '?code=c1&state=other', 'Invalid _state'],
    ['a state without a code or error', '?state=st', 'Missing code or _state'],
  ])('refuses %s with 400 and ends the sign-in', async (_what, query, message) => {
    const server = await startCallbackServer(0, 'st');
    const res = await fetch(`${server.redirectUri}${query}`);
    expect(res.status).toBe(400);
    expect(await res.text()).toContain(message);
    expect((await server.result).toString()).toBe(query.slice(1));
    await server.close();
  });

  it('answers 404 outside /callback without ending the sign-in', async () => {
    const server = await startCallbackServer(0, 'st');
    try {
      expect((await fetch(`http://127.0.0.1:${server.port}/favicon.ico`)).status).toBe(404);
      const denied = await fetch(`${server.redirectUri}?error=access_denied&error_description=no&state=st`);
      expect(denied.status).toBe(200);
      expect((await server.result).get('error')).toBe('access_denied');
    } finally {
      await server.close();
    }
  });

  it('refuses a port that is taken', async () => {
    const a = await startCallbackServer(0, 'st');
    try {
      await expect(startCallbackServer(a.port, 'st')).rejects.toMatchObject({ code: 'EADDRINUSE' });
    } finally {
      await a.close();
    }
  });
});
