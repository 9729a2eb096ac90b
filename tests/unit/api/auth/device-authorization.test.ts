/**
 * The device-authorization answer (docs/wire.md §23): the SDK typings' camelCase (`@wix/auto_sdk_identity_oauth`
 * DeviceCodeResponse), which the emulator sends, and RFC 8628's snake_case are both read.
 */
import { describe, expect, it } from 'vitest';
import { readDeviceAuthorization, TokenEndpoint, TokenEndpointError } from '../../../../src/api/auth/tokens.js';

describe('readDeviceAuthorization', () => {
  it("reads the SDK's camelCase", () => {
    expect(readDeviceAuthorization({ deviceCode: 'd', userCode: 'U', verificationUri: 'https://x/d', verificationUriComplete: 'https://x/d?u', expiresIn: 600, interval: 2 })).toEqual({
      deviceCode: 'd',
      userCode: 'U',
      verificationUri: 'https://x/d',
      verificationUriComplete: 'https://x/d?u',
      expiresIn: 600,
      interval: 2,
    });
  });

  it("reads RFC 8628's snake_case, the poll interval 5 s when none is given", () => {
    expect(readDeviceAuthorization({ device_code: 'd', user_code: 'U', verification_uri: 'https://x/d', expires_in: 600 })).toEqual({ deviceCode: 'd', userCode: 'U', verificationUri: 'https://x/d', expiresIn: 600, interval: 5 });
  });

  it('refuses an answer without the codes', () => {
    expect(() => readDeviceAuthorization({ userCode: 'U', verificationUri: 'https://x/d', expiresIn: 600 })).toThrow(/deviceCode/);
  });

  it('the endpoint reports such an answer as a token endpoint failure', async () => {
    const endpoint = new TokenEndpoint({ baseUrl: 'https://www.wixapis.com', fetch: (async () => new Response('{"userCode":"U"}', { status: 200 })) as typeof fetch });
    await expect(endpoint.deviceCode('c')).rejects.toBeInstanceOf(TokenEndpointError);
  });
});
