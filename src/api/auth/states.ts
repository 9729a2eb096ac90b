/**
 * The sign-in states and error codes of docs/wire.md §22, as the SDK maps them: the server's login
 * state to the client's, e-mail code verification allowed only while verification is required, the code/state
 * check of a callback, and the registration and login error codes.
 */

/** Login states the server answers (docs/wire.md §22). */
export const SERVER_LOGIN_STATES = ['SUCCESS', 'REQUIRE_OWNER_APPROVAL', 'REQUIRE_EMAIL_VERIFICATION', 'MFA_CHALLENGE', 'STATUS_CHECK', 'UNKNOWN_STATE'] as const;

/** The second factors whose code `auth verify` completes (SDK identity_authentication FactorType; docs/wire.md §22). */
export const CODE_FACTORS = ['SMS', 'CALL'] as const;
export type CodeFactor = (typeof CODE_FACTORS)[number];
export type ServerLoginState = (typeof SERVER_LOGIN_STATES)[number];

/** The client's login states. */
export type ClientLoginState =
  | 'INITIAL'
  | 'SUCCESS'
  | 'FAILURE'
  | 'EMAIL_VERIFICATION_REQUIRED'
  | 'MFA_CHALLENGE'
  | 'OWNER_APPROVAL_REQUIRED'
  | 'USER_CAPTCHA_REQUIRED'
  | 'SILENT_CAPTCHA_REQUIRED';

/** Where a login or registration ended, on the client's side. */
export type LoginResult =
  | { loginState: 'SUCCESS'; sessionToken: string }
  | { loginState: 'EMAIL_VERIFICATION_REQUIRED'; stateToken: string }
  /** A second factor's code was sent (SMS or CALL); `hint` names where (`••• 1234`). */
  | { loginState: 'MFA_CHALLENGE'; stateToken: string; factorType: CodeFactor; hint?: string }
  | { loginState: 'OWNER_APPROVAL_REQUIRED' }
  | { loginState: 'USER_CAPTCHA_REQUIRED' | 'SILENT_CAPTCHA_REQUIRED'; error: string; errorCode: LoginErrorCode }
  | { loginState: 'FAILURE'; error: string; errorCode?: LoginErrorCode };

/** The messages of docs/wire.md §23, §22. */
export const UNKNOWN_STATE = 'Unknown _state';
export const MISSING_CODE_OR_STATE = 'Missing code or _state';
export const INVALID_STATE = 'Invalid _state';

/**
 * The client state for a server answer (docs/wire.md §22): SUCCESS with its session token;
 * REQUIRE_OWNER_APPROVAL; REQUIRE_EMAIL_VERIFICATION with its state token (to remember); MFA_CHALLENGE of an
 * SMS or CALL factor (`mfaChallengeData.factorType`) with its state token; anything else is a FAILURE 'Unknown
 * _state' (also a SUCCESS without a session token, a verification without a state token, or a challenge of a
 * factor a code cannot complete: TOTP, PUSH, WEBAUTHN).
 */
export function clientStateOf(reply: { state?: string; sessionToken?: string; stateToken?: string; mfaChallengeData?: unknown }): LoginResult {
  switch (reply.state) {
    case 'SUCCESS':
      if (reply.sessionToken) return { loginState: 'SUCCESS', sessionToken: reply.sessionToken };
      break;
    case 'REQUIRE_OWNER_APPROVAL':
      return { loginState: 'OWNER_APPROVAL_REQUIRED' };
    case 'REQUIRE_EMAIL_VERIFICATION':
      if (reply.stateToken) return { loginState: 'EMAIL_VERIFICATION_REQUIRED', stateToken: reply.stateToken };
      break;
    case 'MFA_CHALLENGE': {
      const data = (reply.mfaChallengeData ?? {}) as { factorType?: unknown; verificationChallengeData?: { hint?: unknown } };
      const factorType = data.factorType;
      if (!reply.stateToken || !(CODE_FACTORS as readonly unknown[]).includes(factorType)) break;
      const hint = data.verificationChallengeData?.hint;
      return { loginState: 'MFA_CHALLENGE', stateToken: reply.stateToken, factorType: factorType as CodeFactor, ...(typeof hint === 'string' ? { hint } : {}) };
    }
  }
  return { loginState: 'FAILURE', error: UNKNOWN_STATE };
}

/**
 * Checks that a code may be verified now: only in EMAIL_VERIFICATION_REQUIRED or an SMS/CALL MFA_CHALLENGE
 * (docs/wire.md §22).
 * @returns the state token to send with the code
 * @throws Error 'Unknown _state' in any other state
 */
export function stateTokenForCode(current: LoginResult | { loginState: 'INITIAL' }): string {
  if (current.loginState !== 'EMAIL_VERIFICATION_REQUIRED' && current.loginState !== 'MFA_CHALLENGE') throw new Error(UNKNOWN_STATE);
  return current.stateToken;
}

/**
 * The code of an authorization callback, checked against the state issued (docs/wire.md §23).
 * @throws Error 'Missing code or _state' when either is missing; 'Invalid _state' when the state differs
 */
export function checkCallback(params: { code?: string | null; state?: string | null }, issuedState: string): string {
  if (!params.code || !params.state) throw new Error(MISSING_CODE_OR_STATE);
  if (params.state !== issuedState) throw new Error(INVALID_STATE);
  return params.code;
}

/**
 * The application error codes the SDK's OAuth strategy recognises (`@wix/sdk` build/auth/oauth2/constants.js;
 * docs/wire.md §3, §22).
 */
export const IDENTITY_CODES = {
  emailAlreadyExists: '-19995',
  invalidPassword: '-19976',
  resetPassword: '-19973',
  missingCaptchaToken: '-19971',
  invalidCaptchaToken: '-19970',
} as const;

/**
 * The captcha codes the SDK's authentication module types for registerV2 and loginV2
 * (`@wix/auto_sdk_identity_authentication` RegisterV2ApplicationErrors, LoginV2ApplicationErrors), read beside
 * the numeric ones above.
 */
const MISSING_CAPTCHA_NAMES: readonly string[] = ['CAPTCHA_TOKEN_REQUIRED', 'MISSING_CAPTCHA_TOKEN', 'RECAPTCHA_REQUIRED'];
const INVALID_CAPTCHA_NAMES: readonly string[] = ['INVALID_CAPTCHA_TOKEN', 'RECAPTCHA_FAILED'];

export type LoginErrorCode = 'invalidEmail' | 'emailAlreadyExists' | 'missingCaptchaToken' | 'invalidCaptchaToken' | 'invalidPassword' | 'resetPassword';

/** What the mappings read of a failed call: the application code, the field violations and the message. */
export interface IdentityFailure {
  code?: string | number;
  fieldViolations?: ReadonlyArray<{ field?: string; description?: string; ruleName?: string; violatedRule?: string; data?: unknown }>;
  message: string;
}

const captcha = (code: string): LoginErrorCode | undefined =>
  code === IDENTITY_CODES.missingCaptchaToken || MISSING_CAPTCHA_NAMES.includes(code)
    ? 'missingCaptchaToken'
    : code === IDENTITY_CODES.invalidCaptchaToken || INVALID_CAPTCHA_NAMES.includes(code)
      ? 'invalidCaptchaToken'
      : undefined;

/**
 * An e-mail field violation: `data.type` EMAIL, as the SDK's OAuth strategy finds it on registration
 * (`fieldViolations.find(v => v.data.type === 'EMAIL')`), or a rule named EMAIL (docs/wire.md §22: "a field
 * violation of type EMAIL").
 */
function isEmailViolation(v: NonNullable<IdentityFailure['fieldViolations']>[number]): boolean {
  const type = v.data && typeof v.data === 'object' ? (v.data as { type?: unknown }).type : undefined;
  return type === 'EMAIL' || (v.ruleName ?? v.violatedRule) === 'EMAIL';
}

/**
 * A failed registration as the client reports it, as the SDK's `OAuthStrategy.register` does (docs/wire.md §22): an e-mail field violation is `invalidEmail` with the violation's text; -19995
 * `emailAlreadyExists`; a missing or invalid captcha token (-19971 / -19970, or the authentication module's
 * CAPTCHA_TOKEN_REQUIRED / INVALID_CAPTCHA_TOKEN) `missingCaptchaToken` / `invalidCaptchaToken`, each a FAILURE;
 * anything else a FAILURE with the server message only.
 */
export function registrationFailure(f: IdentityFailure): LoginResult {
  const email = f.fieldViolations?.find(isEmailViolation);
  if (email) return { loginState: 'FAILURE', error: email.description ?? f.message, errorCode: 'invalidEmail' };
  const code = f.code === undefined ? '' : String(f.code);
  if (code === IDENTITY_CODES.emailAlreadyExists) return { loginState: 'FAILURE', error: f.message, errorCode: 'emailAlreadyExists' };
  const c = captcha(code);
  if (c) return { loginState: 'FAILURE', error: f.message, errorCode: c };
  return { loginState: 'FAILURE', error: f.message };
}

/**
 * A failed login as the client reports it, as the SDK's `OAuthStrategy.login` does (docs/wire.md §22):
 * a missing or invalid captcha token `missingCaptchaToken` / `invalidCaptchaToken`, -19976 `invalidPassword`,
 * -19973 `resetPassword`, any other `invalidEmail`; each a FAILURE. (The SDK keeps USER_CAPTCHA_REQUIRED and
 * SILENT_CAPTCHA_REQUIRED for states a server answers, never for these errors.)
 */
export function loginFailure(f: IdentityFailure): LoginResult {
  const code = f.code === undefined ? '' : String(f.code);
  const c = captcha(code);
  if (c) return { loginState: 'FAILURE', error: f.message, errorCode: c };
  if (code === IDENTITY_CODES.invalidPassword) return { loginState: 'FAILURE', error: f.message, errorCode: 'invalidPassword' };
  if (code === IDENTITY_CODES.resetPassword) return { loginState: 'FAILURE', error: f.message, errorCode: 'resetPassword' };
  return { loginState: 'FAILURE', error: f.message, errorCode: 'invalidEmail' };
}
