/**
 * The sign-in families (docs/wire.md §21, §22, §1 and §3), named by the official SDK's methods
 * (`@wix/redirects` createRedirectSession; `@wix/identity` authentication, recovery and verification). Replies
 * the spec does not show follow the SDK's typings; fields the platform adds pass through (`looseObject`).
 *
 * The token endpoint is not a family: it takes no credentials and answers snake_case (tokens.ts).
 */
import * as z from 'zod/mini';
import { callsOf, defineFamily } from '../family.js';
import { EmptyReply, isoDate } from '../schemas/common.js';

/** Redirect-session sections (docs/wire.md §13). */
export const REDIRECT_SECTIONS = ['bookingsCheckout', 'ecomCheckout', 'eventsCheckout', 'paidPlansCheckout', 'login', 'logout', 'auth', 'storesProduct', 'bookingsBook', 'membersAccount'] as const;
export const ACCOUNT_SECTIONS = ['ACCOUNT_INFO', 'BOOKINGS', 'ORDERS', 'SUBSCRIPTIONS', 'EVENTS'] as const;
export const FACTOR_TYPES = ['PASSWORD', 'SMS', 'CALL', 'EMAIL', 'TOTP', 'PUSH', 'WEBAUTHN'] as const;
export const IDENTITY_STATUSES = ['PENDING', 'ACTIVE', 'DELETED', 'BLOCKED', 'OFFLINE'] as const;

const Str = () => z.string().check(z.maxLength(2000));
const AuthRequest = () =>
  z.looseObject({
    clientId: Str(),
    redirectUri: Str(),
    codeChallenge: z.optional(Str()),
    codeChallengeMethod: z.optional(z.enum(['S256'])),
    responseMode: z.optional(z.enum(['query', 'fragment', 'web_message'])),
    responseType: z.optional(z.enum(['code'])),
    scope: z.optional(Str()),
    state: z.optional(Str()),
    sessionToken: z.optional(Str()),
    nonce: z.optional(Str()),
    prompt: z.optional(z.enum(['login', 'none'])),
  });

const RedirectSession = z.looseObject({
  id: z.optional(z.string()),
  fullUrl: z.string(),
  urlDetails: z.optional(z.looseObject({ endpoint: z.optional(z.string()), searchParams: z.optional(z.record(z.string(), z.string())) })),
  sessionToken: z.optional(z.string()),
  shortUrl: z.optional(z.string()),
});

const LoginId = () => z.looseObject({ email: z.string().check(z.maxLength(320)) });
const CaptchaTokens = () => z.optional(z.array(z.looseObject({ Recaptcha: z.optional(z.string()), InvisibleRecaptcha: z.optional(z.string()), NoCaptcha: z.optional(z.string()) })).check(z.maxLength(3)));
const IdentityProfile = () =>
  z.looseObject({
    firstName: z.optional(Str()),
    lastName: z.optional(Str()),
    nickname: z.optional(Str()),
    emails: z.optional(z.array(z.looseObject({ email: z.string(), tag: z.optional(z.string()) })).check(z.maxLength(50))),
    privacyStatus: z.optional(z.enum(['UNDEFINED', 'PUBLIC', 'PRIVATE'])),
  });

/** An identity as the identity calls answer it. */
export const Identity = z.looseObject({
  id: z.string(),
  createdDate: z.optional(isoDate),
  updatedDate: z.optional(isoDate),
  revision: z.optional(z.string()),
  loginId: z.optional(z.looseObject({ email: z.optional(z.string()) })),
  identityProfile: z.optional(z.looseObject({})),
  status: z.optional(z.looseObject({ name: z.optional(z.string()), reasons: z.optional(z.array(z.string())) })),
  email: z.optional(z.looseObject({ address: z.optional(z.string()), isVerified: z.optional(z.boolean()) })),
});

/** The answer of register, login, sign-on and factor verification (docs/wire.md §22). */
export const StateReply = z.looseObject({
  state: z.string(),
  sessionToken: z.optional(z.string()),
  stateToken: z.optional(z.string()),
  identity: z.optional(Identity),
  additionalData: z.optional(z.record(z.string(), z.unknown())),
  /** MFA_CHALLENGE: the factor whose code was sent, and where (SDK identity_authentication `MfaChallengeData`). */
  mfaChallengeData: z.optional(
    z.looseObject({
      factorType: z.optional(z.string()),
      availableFactors: z.optional(z.array(z.looseObject({ factorType: z.optional(z.string()), factorStatus: z.optional(z.string()) }))),
      reason: z.optional(z.string()),
      verificationChallengeData: z.optional(z.looseObject({ hint: z.optional(z.nullable(z.string())) })),
    }),
  ),
});

export const redirectsFamily = defineFamily({
  name: 'redirects',
  prefixes: [{ proto: '/v1/redirect-session', urls: ['/_api/redirects-api/v1/redirect-session', '/redirect-session/v1/redirect-session', '/headless/v1/redirect-session'] }],
  operations: {
    createRedirectSession: {
      method: 'POST',
      path: '/v1/redirect-session',
      summary: 'A URL of a hosted page (sign-in, logout, checkouts, account areas) to send a browser to',
      request: () =>
        z.looseObject({
          auth: z.optional(z.looseObject({ authRequest: AuthRequest(), prompt: z.optional(z.enum(['login', 'none'])) })),
          login: z.optional(z.looseObject({})),
          logout: z.optional(z.looseObject({ clientId: z.optional(Str()) })),
          bookingsCheckout: z.optional(z.looseObject({ slotAvailability: z.optional(z.looseObject({})), timezone: z.optional(Str()) })),
          ecomCheckout: z.optional(z.looseObject({ checkoutId: z.optional(Str()) })),
          eventsCheckout: z.optional(z.looseObject({ reservationId: z.optional(Str()), eventSlug: z.optional(Str()) })),
          // `orderId` is the emulator's: its hosted checkout page pays a DRAFT online order (docs/plans-orders.md).
          paidPlansCheckout: z.optional(z.looseObject({ planId: z.optional(Str()), checkoutData: z.optional(Str()), orderId: z.optional(Str()) })),
          storesProduct: z.optional(z.looseObject({ productSlug: z.optional(Str()) })),
          bookingsBook: z.optional(z.looseObject({ resourceId: z.optional(Str()) })),
          membersAccount: z.optional(z.looseObject({ section: z.optional(z.enum(ACCOUNT_SECTIONS)) })),
          callbacks: z.optional(z.looseObject({ postFlowUrl: z.optional(Str()), thankYouPageUrl: z.optional(Str()), loginUrl: z.optional(Str()), planListUrl: z.optional(Str()) })),
          preferences: z.optional(z.looseObject({ useGenericWixPages: z.optional(z.boolean()), maintainSession: z.optional(z.boolean()) })),
          origin: z.optional(Str()),
        }),
      reply: () => z.looseObject({ redirectSession: RedirectSession }),
    },
  },
});

export const authenticationFamily = defineFamily({
  name: 'authentication',
  prefixes: [
    { proto: '/v2', urls: ['/_api/iam/authentication/v2', '/iam/authentication/v2'] },
    { proto: '/v1', urls: ['/_api/iam/authentication/v1', '/iam/authentication/v1'] },
  ],
  operations: {
    registerV2: {
      method: 'POST',
      path: '/v2/register',
      summary: 'Register an identity (and a site member) with an e-mail and a password',
      request: () =>
        z.looseObject({
          loginId: LoginId(),
          password: z.string().check(z.maxLength(256)),
          profile: z.optional(IdentityProfile()),
          captchaTokens: CaptchaTokens(),
          clientMetaData: z.optional(z.looseObject({})),
        }),
      reply: () => StateReply,
    },
    loginV2: {
      method: 'POST',
      path: '/v2/login',
      summary: 'Sign in with an e-mail and a password: a state (SUCCESS with a session token, or what is missing)',
      request: () => z.looseObject({ loginId: LoginId(), password: z.string().check(z.maxLength(256)), captchaTokens: CaptchaTokens(), clientMetaData: z.optional(z.looseObject({})) }),
      reply: () => StateReply,
      readOnly: false,
    },
    changePassword: {
      method: 'POST',
      path: '/v2/change-password',
      summary: "Change the signed-in member's password",
      request: () => z.looseObject({ newPassword: z.string().check(z.minLength(1), z.maxLength(256)) }),
      reply: () => EmptyReply,
    },
    signOn: {
      method: 'POST',
      path: '/v2/sign-on',
      summary: 'A session token for an identity (created when new) without its password: an elevated call',
      request: () => z.looseObject({ loginId: LoginId(), profile: z.optional(IdentityProfile()), verifyEmail: z.optional(z.boolean()), mergeExistingContact: z.optional(z.boolean()) }),
      reply: () => z.looseObject({ sessionToken: z.string(), identity: z.optional(Identity) }),
    },
    logout: {
      method: 'GET',
      path: '/v1/logout',
      summary: 'End the signed-in session (its tokens are revoked)',
      request: () => z.looseObject({ postLogoutRedirectUri: z.optional(Str()), clientId: z.optional(Str()) }),
      reply: () => EmptyReply,
      readOnly: false,
    },
    loginCallback: {
      method: 'GET',
      path: '/v1/callback',
      summary: 'Check a session token against the state of a sign-in request',
      request: () => z.looseObject({ state: z.optional(Str()), sessionToken: Str() }),
      reply: () => z.looseObject({ valid: z.boolean(), identityId: z.optional(z.string()) }),
    },
    verify: {
      method: 'POST',
      path: '/v2/{factorType}/verify',
      summary: 'Complete a sign-in that asked for a code: the e-mail code, or an SMS or CALL second factor',
      request: () =>
        z.looseObject({
          factorType: z.enum(FACTOR_TYPES),
          stateToken: Str(),
          rememberThisDevice: z.optional(z.boolean()),
          emailData: z.optional(z.looseObject({ code: Str() })),
          smsData: z.optional(z.looseObject({ code: z.optional(Str()) })),
          callData: z.optional(z.looseObject({ code: z.optional(Str()) })),
          totpData: z.optional(z.looseObject({ code: z.optional(Str()) })),
          pushData: z.optional(z.looseObject({})),
          webauthnData: z.optional(z.looseObject({})),
        }),
      reply: () => StateReply,
    },
  },
});

export const recoveryFamily = defineFamily({
  name: 'recovery',
  prefixes: [{ proto: '/v1', urls: ['/_api/iam/recovery/v1'] }],
  operations: {
    sendRecoveryEmail: {
      method: 'POST',
      path: '/v1/send-email',
      summary: 'Send a password recovery link (to the outbox, on the emulator)',
      request: () => z.looseObject({ email: z.string().check(z.maxLength(320)), language: z.optional(Str()), redirect: z.optional(z.looseObject({ url: z.optional(Str()), clientId: z.optional(Str()) })) }),
      reply: () => EmptyReply,
    },
    sendActivationEmail: {
      method: 'POST',
      path: '/v1/activation-email',
      summary: 'Send an activation e-mail to an identity',
      request: () => z.looseObject({ identityId: Str(), emailOptions: z.optional(z.looseObject({})) }),
      reply: () => EmptyReply,
    },
    recover: {
      method: 'POST',
      path: '/v1/recover',
      summary: 'Set a new password with a recovery token from the recovery e-mail',
      request: () => z.looseObject({ recoveryToken: Str(), password: z.string().check(z.minLength(1), z.maxLength(256)) }),
      // The SDK's StateMachineResponse: SUCCESS with the member's session token and the identity.
      reply: () => StateReply,
    },
  },
});

export const verificationFamily = defineFamily({
  name: 'verification',
  prefixes: [{ proto: '/v1', urls: ['/_api/iam/verification/v1'] }],
  operations: {
    start: {
      method: 'POST',
      // The SDK's path (@wix/auto_sdk_identity_verification `start`); the seed spells it /v1/Start (docs/wire.md §22).
      path: '/v1/start',
      aliases: ['/v1/Start'],
      summary: "Send a verification code to an identity's e-mail",
      request: () => z.looseObject({ identityId: Str(), target: z.optional(z.enum(['EMAIL'])) }),
      reply: () => z.looseObject({ verificationId: z.optional(z.string()) }),
    },
    verifyDuringAuthentication: {
      method: 'POST',
      path: '/v1/auth/verify',
      summary: 'Complete a sign-in that requires e-mail verification with the code sent',
      request: () => z.looseObject({ code: Str(), stateToken: Str() }),
      reply: () => StateReply,
    },
    resendDuringAuthentication: {
      method: 'POST',
      path: '/v1/auth/resend',
      summary: 'Send the verification code of a pending sign-in again',
      request: () => z.looseObject({ stateToken: Str() }),
      reply: () => StateReply,
    },
  },
});

export const redirects = callsOf(redirectsFamily);
export const authentication = callsOf(authenticationFamily);
export const recovery = callsOf(recoveryFamily);
export const verification = callsOf(verificationFamily);
