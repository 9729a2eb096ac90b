import { describe, expect, it } from 'vitest';
import { NetworkError } from '../../../../src/api/errors.js';
import { TokenEndpoint, TokenEndpointError } from '../../../../src/api/auth/tokens.js';

/** A fetch that records the request and answers `reply`. */
function fakeFetch(reply: () => Promise<Response> | Response) {
  const seen: Array<{ url: string; init: RequestInit }> = [];
  const fn = (async (url: string, init: RequestInit) => {
    seen.push({ url, init });
    return reply();
  }) as unknown as typeof fetch;
  return { fn, seen };
}

describe('token endpoint client (docs/wire.md §23, §11)', () => {
  it('posts camelCase JSON without credentials and reads the snake_case answer', async () => {
    const f = fakeFetch(() => new Response(JSON.stringify({ access_token: 'a', refresh_token: 'r', expires_in: 14400 }), { status: 200 }));
    const ep = new TokenEndpoint({ baseUrl: 'http://h.test/', fetch: f.fn });
    const reply = await ep.token({ grantType: 'anonymous', clientId: 'c' });
    expect(reply).toEqual({ access_token: 'a', refresh_token: 'r', expires_in: 14400 });
    expect(f.seen[0]!.url).toBe('http://h.test/oauth2/token');
    expect(JSON.parse(f.seen[0]!.init.body as string)).toEqual({ grantType: 'anonymous', clientId: 'c' });
    expect(f.seen[0]!.init.headers).toEqual({ 'content-type': 'application/json' });
  });

  it('revokes with the client id, and the client secret only when there is one (RFC 7009 section 2.1)', async () => {
    const f = fakeFetch(() => new Response('{}', { status: 200 }));
    const ep = new TokenEndpoint({ baseUrl: 'http://h.test', fetch: f.fn });
    await ep.revoke('tok', { clientId: 'c' });
    await ep.revoke('tok', { clientId: 'app', clientSecret: 's3cret' });
    expect(f.seen.map((x) => x.url)).toEqual(['http://h.test/oauth2/revoke', 'http://h.test/oauth2/revoke']);
    expect(JSON.parse(f.seen[0]!.init.body as string)).toEqual({ token: 'tok', clientId: 'c' });
    expect(JSON.parse(f.seen[1]!.init.body as string)).toEqual({ token: 'tok', clientId: 'app', clientSecret: 's3cret' });
    expect(f.seen[1]!.init.headers).toEqual({ 'content-type': 'application/json' });
  });

  it('words a refusal as the SDK does, with the OAuth error code', async () => {
    const f = fakeFetch(() => new Response('{"error":"invalid_grant","error_description":"used"}', { status: 400, statusText: 'Bad Request', headers: { 'x-wix-request-id': 'rid-7' } }));
    const err = await new TokenEndpoint({ baseUrl: 'http://h.test', fetch: f.fn }).token({ grantType: 'refresh_token', clientId: 'c', refreshToken: 'x' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TokenEndpointError);
    expect((err as TokenEndpointError).message).toBe('Failed to fetch tokens from OAuth API: Bad Request. request id: rid-7. Response: {"error":"invalid_grant","error_description":"used"}');
    expect((err as TokenEndpointError).error).toBe('invalid_grant');
  });

  it('turns a reply that is not JSON into a TokenEndpointError, and no answer into a NetworkError', async () => {
    const html = fakeFetch(() => new Response('<html>', { status: 200 }));
    await expect(new TokenEndpoint({ baseUrl: 'http://h.test', fetch: html.fn }).token({ grantType: 'anonymous', clientId: 'c' })).rejects.toBeInstanceOf(TokenEndpointError);
    const never = (async (_url: string, init: RequestInit) =>
      new Promise((_, reject) => init.signal!.addEventListener('abort', () => reject(init.signal!.reason)))) as unknown as typeof fetch;
    const slow = new TokenEndpoint({ baseUrl: 'http://h.test', fetch: never, timeoutMs: 50 });
    await expect(slow.token({ grantType: 'anonymous', clientId: 'c' })).rejects.toBeInstanceOf(NetworkError);
    const ctrl = new AbortController();
    const pending = slow.token({ grantType: 'anonymous', clientId: 'c' }, ctrl.signal);
    ctrl.abort(new DOMException('Interrupted', 'AbortError'));
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });
});
