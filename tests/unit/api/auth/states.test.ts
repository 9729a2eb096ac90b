import { describe, expect, it } from 'vitest';
import { checkCallback, clientStateOf, loginFailure, registrationFailure, stateTokenForCode } from '../../../../src/api/auth/states.js';

describe('server state to client state (docs/wire.md §22)', () => {
  it('maps every server state', () => {
    expect(clientStateOf({ state: 'SUCCESS', sessionToken: 'st' })).toEqual({ loginState: 'SUCCESS', sessionToken: 'st' });
    expect(clientStateOf({ state: 'REQUIRE_OWNER_APPROVAL' })).toEqual({ loginState: 'OWNER_APPROVAL_REQUIRED' });
    expect(clientStateOf({ state: 'REQUIRE_EMAIL_VERIFICATION', stateToken: 'x' })).toEqual({ loginState: 'EMAIL_VERIFICATION_REQUIRED', stateToken: 'x' });
    for (const state of ['STATUS_CHECK', 'UNKNOWN_STATE', 'SOMETHING_NEW', undefined]) {
      expect(clientStateOf({ state })).toEqual({ loginState: 'FAILURE', error: 'Unknown _state' });
    }
    expect(clientStateOf({ state: 'SUCCESS' })).toEqual({ loginState: 'FAILURE', error: 'Unknown _state' });
  });

  it('maps an MFA_CHALLENGE of an SMS or CALL factor, and reads one of a factor a code cannot complete as unknown', () => {
    const sms = { state: 'MFA_CHALLENGE', stateToken: 't', mfaChallengeData: { factorType: 'SMS', verificationChallengeData: { hint: '••• 1234' } } };
    expect(clientStateOf(sms)).toEqual({ loginState: 'MFA_CHALLENGE', stateToken: 't', factorType: 'SMS', hint: '••• 1234' });
    expect(clientStateOf({ state: 'MFA_CHALLENGE', stateToken: 't', mfaChallengeData: { factorType: 'CALL' } })).toEqual({ loginState: 'MFA_CHALLENGE', stateToken: 't', factorType: 'CALL' });
    for (const factorType of ['TOTP', 'PUSH', 'WEBAUTHN', undefined]) {
      expect(clientStateOf({ state: 'MFA_CHALLENGE', stateToken: 't', mfaChallengeData: { factorType } })).toEqual({ loginState: 'FAILURE', error: 'Unknown _state' });
    }
    expect(clientStateOf({ ...sms, stateToken: undefined })).toEqual({ loginState: 'FAILURE', error: 'Unknown _state' });
    expect(stateTokenForCode({ loginState: 'MFA_CHALLENGE', stateToken: 't', factorType: 'SMS' })).toBe('t');
  });

  it('allows an e-mail code only while verification is required', () => {
    expect(stateTokenForCode({ loginState: 'EMAIL_VERIFICATION_REQUIRED', stateToken: 'tok' })).toBe('tok');
    expect(() => stateTokenForCode({ loginState: 'INITIAL' })).toThrow('Unknown _state');
    expect(() => stateTokenForCode({ loginState: 'OWNER_APPROVAL_REQUIRED' })).toThrow('Unknown _state');
  });

  it('checks the code and the state of a callback', () => {
    expect(checkCallback({ code: 'c', state: 's' }, 's')).toBe('c');
    expect(() => checkCallback({ code: 'c' }, 's')).toThrow('Missing code or _state');
    expect(() => checkCallback({ state: 's' }, 's')).toThrow('Missing code or _state');
    expect(() => checkCallback({ code: 'c', state: 'other' }, 's')).toThrow('Invalid _state');
  });
});

describe('error codes (docs/wire.md §22)', () => {
  it('maps registration failures', () => {
    expect(registrationFailure({ message: 'bad', fieldViolations: [{ field: 'loginId.email', description: 'not an e-mail', ruleName: 'EMAIL' }] })).toEqual({ loginState: 'FAILURE', error: 'not an e-mail', errorCode: 'invalidEmail' });
    // Where the SDK's OAuth strategy looks: data.type EMAIL (a FORMAT violation).
    expect(registrationFailure({ message: 'bad', fieldViolations: [{ field: 'loginId.email', description: 'not an e-mail', violatedRule: 'FORMAT', data: { type: 'EMAIL' } }] })).toEqual({ loginState: 'FAILURE', error: 'not an e-mail', errorCode: 'invalidEmail' });
    expect(registrationFailure({ message: 'short', fieldViolations: [{ field: 'password', description: 'too short', violatedRule: 'MIN_LENGTH', data: { min: 6 } }] })).toEqual({ loginState: 'FAILURE', error: 'short' });
    expect(registrationFailure({ message: 'exists', code: -19995 })).toMatchObject({ loginState: 'FAILURE', errorCode: 'emailAlreadyExists' });
    // As the SDK's OAuthStrategy.register reports them: FAILURE with the captcha error code.
    expect(registrationFailure({ message: 'm', code: '-19971' })).toEqual({ loginState: 'FAILURE', error: 'm', errorCode: 'missingCaptchaToken' });
    expect(registrationFailure({ message: 'm', code: '-19970' })).toEqual({ loginState: 'FAILURE', error: 'm', errorCode: 'invalidCaptchaToken' });
    // The authentication module's typed codes (RegisterV2ApplicationErrors).
    expect(registrationFailure({ message: 'm', code: 'CAPTCHA_TOKEN_REQUIRED' })).toMatchObject({ loginState: 'FAILURE', errorCode: 'missingCaptchaToken' });
    expect(registrationFailure({ message: 'm', code: 'INVALID_CAPTCHA_TOKEN' })).toMatchObject({ loginState: 'FAILURE', errorCode: 'invalidCaptchaToken' });
    expect(registrationFailure({ message: 'server says no', code: '-1' })).toEqual({ loginState: 'FAILURE', error: 'server says no' });
  });

  it('maps login failures', () => {
    expect(loginFailure({ message: 'm', code: '-19971' })).toEqual({ loginState: 'FAILURE', error: 'm', errorCode: 'missingCaptchaToken' });
    expect(loginFailure({ message: 'm', code: '-19970' })).toEqual({ loginState: 'FAILURE', error: 'm', errorCode: 'invalidCaptchaToken' });
    expect(loginFailure({ message: 'm', code: 'CAPTCHA_TOKEN_REQUIRED' })).toMatchObject({ loginState: 'FAILURE', errorCode: 'missingCaptchaToken' });
    expect(loginFailure({ message: 'm', code: '-19976' })).toMatchObject({ loginState: 'FAILURE', errorCode: 'invalidPassword' });
    expect(loginFailure({ message: 'm', code: '-19973' })).toMatchObject({ loginState: 'FAILURE', errorCode: 'resetPassword' });
    expect(loginFailure({ message: 'm', code: '-19999' })).toMatchObject({ loginState: 'FAILURE', errorCode: 'invalidEmail' });
    expect(loginFailure({ message: 'm' })).toMatchObject({ errorCode: 'invalidEmail' });
  });
});
