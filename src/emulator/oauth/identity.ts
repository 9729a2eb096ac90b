/**
 * Identities: who can sign in to a site (docs/wire.md §22). An identity is a login e-mail, a password (scrypt with a salt) and the site
 * member it signs in as; registering creates both. Whether a sign-in succeeds follows the member's status and
 * the site's policy:
 *
 * | situation | answer |
 * | --- | --- |
 * | captcha required, no captcha token / another token | 400 `-19971` / `-19970` (the codes the SDK's OAuth strategy reads as missingCaptchaToken / invalidCaptchaToken) |
 * | unknown e-mail | 404 `-19999` (the client reports invalidEmail) |
 * | wrong password | 400 `-19976` |
 * | member BLOCKED or OFFLINE | 403 `-19956` |
 * | member PENDING (owner approval required) | state REQUIRE_OWNER_APPROVAL |
 * | e-mail verification required and e-mail not verified | state REQUIRE_EMAIL_VERIFICATION + stateToken, a code to the outbox |
 * | the identity has an SMS or CALL sign-in factor (second factor; control plane `PUT /__emulator/identity-factor`) | state MFA_CHALLENGE + stateToken + `mfaChallengeData`, a code to the outbox on that channel (`to`: the phone) |
 * | otherwise | state SUCCESS + sessionToken (10 minutes, exchanged through a redirect session) |
 *
 * A code is completed by `POST /v2/{factorType}/verify` (the factor of the challenge) or the verification
 * service's `auth/verify`; a wrong one is 400 VERIFICATION_FAILED (the code the SDK's identity_verification
 * types for verifyDuringAuthentication), an unknown or expired state token 404 NOT_FOUND.
 *
 * Registration refuses an address that is not an e-mail (a FORMAT field violation with `data.type` EMAIL, where
 * the SDK's OAuth strategy looks for it), a password under 6
 * characters (MIN_LENGTH), and an e-mail an identity or member of the site holds (`-19995`).
 */
import { randomBytes, randomInt, randomUUID, scryptSync, timingSafeEqual } from 'node:crypto';
import { ApplicationFailure, ValidationFailure } from '../errors.js';
import { stableId } from '../ids.js';
import { MEMBERS, type MemberDoc } from '../members/model.js';
import { buildMember } from '../members/rules.js';
import { defineCollection, type SiteCollection } from '../store/collection.js';
import type { Store } from '../store/store.js';
import { EMULATOR_CAPTCHA_TOKEN, MAX_CODE_ATTEMPTS, SESSION_TOKEN_TTL_SEC, STATE_TOKEN_TTL_MS, same } from './model.js';
import type { OAuthState } from './state.js';

export const MIN_PASSWORD = 6;

export type IdentityDoc = {
  id: string;
  revision?: string;
  email: string;
  passwordHash: string;
  salt: string;
  memberId: string;
  emailVerified: boolean;
  /**
   * The identity's second sign-in factor, when enabled (control plane; docs/wire.md §22 "Sign-in factors"): the
   * channel a code goes on and the phone it goes to.
   */
  secondFactor?: { factorType: CodeFactor; phone: string };
  createdDate?: string;
  updatedDate?: string;
};

/** Identities of a site; one per login e-mail. */
export const IDENTITIES = defineCollection<IdentityDoc>({
  kind: 'identities',
  entity: 'identity',
  notFound: 'IDENTITY_NOT_FOUND',
  revisioned: false,
  uniques: [{ name: 'email', values: (i) => [i.email.toLowerCase()], code: '-19995', what: 'login e-mail' }],
});

export const IDENTITY_COLLECTIONS = [IDENTITIES];

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * The field violation of an address that is not an e-mail, in the form the SDK's OAuth strategy reads on
 * registration (`fieldViolations.find(v => v.data.type === 'EMAIL')`, `@wix/sdk` OAuthStrategy.register): a
 * FORMAT violation whose `data.type` is EMAIL.
 */
function emailViolation(field: string, email: string): ValidationFailure {
  return ValidationFailure.field(field, `'${email}' is not a valid e-mail address`, 'FORMAT', { type: 'EMAIL' });
}

function hash(password: string, salt: string): string {
  return scryptSync(password, salt, 32).toString('base64url');
}

function fail(status: number, code: string, description: string, data: Record<string, unknown> = {}): ApplicationFailure {
  return new ApplicationFailure(status, code, description, data, description);
}

/** The second factors whose code the emulator sends (SDK identity_authentication FactorType SMS, CALL). */
export const CODE_FACTORS = ['SMS', 'CALL'] as const;
export type CodeFactor = (typeof CODE_FACTORS)[number];

/** The answer of register, login and verification (wire form). */
export type StateAnswer = {
  state: 'SUCCESS' | 'REQUIRE_OWNER_APPROVAL' | 'REQUIRE_EMAIL_VERIFICATION' | 'MFA_CHALLENGE';
  sessionToken?: string;
  stateToken?: string;
  identity: IdentityJson;
  [k: string]: unknown;
};

/** An identity on the wire. */
export type IdentityJson = { id: string; [k: string]: unknown };

/** An identity in the wire form of the identity calls. */
export function identityJson(i: IdentityDoc, member: MemberDoc | undefined): IdentityJson {
  const pending = member?.status === 'PENDING';
  return {
    id: i.id,
    createdDate: i.createdDate,
    updatedDate: i.updatedDate,
    loginId: { email: i.email },
    email: { address: i.email, isVerified: i.emailVerified },
    identityProfile: { nickname: member?.profile.nickname, firstName: member?.contact.firstName, lastName: member?.contact.lastName },
    status: { name: pending ? 'PENDING' : member?.status === 'BLOCKED' ? 'BLOCKED' : member?.status === 'OFFLINE' ? 'OFFLINE' : 'ACTIVE', reasons: pending ? ['PENDING_ADMIN_APPROVAL_REQUIRED'] : [] },
    // The SDK's Identity.factors: the second factor, when on (its phone is not shown).
    factors: i.secondFactor ? [{ factorId: stableId('factor', i.id, i.secondFactor.factorType), type: i.secondFactor.factorType, status: 'ACTIVE' }] : [],
  };
}

/** The site's identities and members, with the OAuth state and the time. */
export interface IdentityScope {
  oauth: OAuthState;
  store: Store;
  site: string;
  now: string;
}

function collections(s: IdentityScope): { identities: SiteCollection<IdentityDoc>; members: SiteCollection<MemberDoc> } {
  return { identities: s.store.collection(IDENTITIES).at(s.site), members: s.store.collection(MEMBERS).at(s.site) };
}

/** @throws ApplicationFailure -19971 / -19970 when the site requires a captcha that is missing / wrong */
function checkCaptcha(s: IdentityScope, tokens: ReadonlyArray<Record<string, unknown>> | undefined): void {
  if (!s.oauth.policy(s.site).requireCaptcha) return;
  const given = (tokens ?? []).flatMap((t) => Object.values(t)).filter((v): v is string => typeof v === 'string');
  if (!given.length) throw fail(400, '-19971', 'this site requires a captcha token');
  if (!given.includes(EMULATOR_CAPTCHA_TOKEN)) throw fail(400, '-19970', 'the captcha token is not valid');
}

/** `+1 555 0100 1234` as a challenge's hint shows it: the last four digits. */
function phoneHint(phone: string): string {
  const digits = phone.replace(/\D/g, '');
  return `••• ${digits.slice(-4)}`;
}

/**
 * Sends the code of a pending verification on its channel: an e-mail, or an SMS or a call to the factor's phone
 * (the outbox's `channel`; the text of a call is what it would say).
 */
function sendCode(s: IdentityScope, i: IdentityDoc, factor: 'EMAIL' | CodeFactor, code: string): void {
  if (factor === 'EMAIL') {
    s.oauth.send({ site: s.site, to: i.email, subject: 'Your verification code', text: `Your verification code is ${code}. It expires in 15 minutes.`, code });
    return;
  }
  const phone = i.secondFactor!.phone;
  const text = factor === 'SMS' ? `Your sign-in code is ${code}. It expires in 15 minutes.` : `Call to ${phone}: "Your sign-in code is ${code.split('').join(' ')}."`;
  s.oauth.send({ site: s.site, to: phone, subject: factor === 'SMS' ? 'Sign-in code (SMS)' : 'Sign-in code (phone call)', text, code, channel: factor });
}

/** The challenge part of an MFA_CHALLENGE answer (SDK identity_authentication `MfaChallengeData`). */
function challengeData(i: IdentityDoc): Record<string, unknown> {
  const f = i.secondFactor!;
  return {
    factorType: f.factorType,
    availableFactors: [{ factorType: f.factorType, factorStatus: 'ENABLED' }],
    reason: 'USER_SETTINGS',
    verificationChallengeData: { hint: phoneHint(f.phone) },
  };
}

/** Starts a pending verification of `i` on `factor`: a new state token and code, the code sent. */
function challenge(s: IdentityScope, i: IdentityDoc, factor: 'EMAIL' | CodeFactor): string {
  const stateToken = randomBytes(24).toString('base64url');
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  s.oauth.pending.set(stateToken, { stateToken, site: s.site, identityId: i.id, code, expiresAt: s.oauth.nowMs() + STATE_TOKEN_TTL_MS, ...(factor === 'EMAIL' ? {} : { factor }) });
  sendCode(s, i, factor, code);
  return stateToken;
}

/**
 * The state a sign-in of `i` reaches (see the module table); sends the code when verification is needed.
 * `secondFactorDone`: the sign-in has just completed its second factor (no new challenge).
 */
function stateOf(s: IdentityScope, i: IdentityDoc, member: MemberDoc, secondFactorDone = false): StateAnswer {
  const identity = identityJson(i, member);
  if (member.status === 'BLOCKED' || member.status === 'OFFLINE') throw fail(403, '-19956', 'this member may not sign in to the site');
  if (member.status === 'PENDING') return { state: 'REQUIRE_OWNER_APPROVAL', identity };
  if (s.oauth.policy(s.site).requireEmailVerification && !i.emailVerified) {
    return { state: 'REQUIRE_EMAIL_VERIFICATION', stateToken: challenge(s, i, 'EMAIL'), identity };
  }
  if (i.secondFactor && !secondFactorDone) {
    return { state: 'MFA_CHALLENGE', stateToken: challenge(s, i, i.secondFactor.factorType), identity, mfaChallengeData: challengeData(i) };
  }
  return { state: 'SUCCESS', sessionToken: sessionToken(s, member.id), identity };
}

/** A session token of a member (what SUCCESS carries): 10 minutes, exchanged through a redirect session. */
export function sessionToken(s: IdentityScope, memberId: string): string {
  return s.oauth.issue({ typ: 'session', role: 'member', site: s.site, sub: memberId, cid: '', sid: randomUUID() }, SESSION_TOKEN_TTL_SEC).token;
}

/**
 * Registers an identity and its member (PENDING when the site requires owner approval), then signs it in.
 * @throws ValidationFailure (FORMAT with `data.type` EMAIL, MIN_LENGTH); ApplicationFailure -19995, captcha codes
 */
export function register(s: IdentityScope, input: { email: string; password: string; nickname?: string; firstName?: string; lastName?: string; captchaTokens?: ReadonlyArray<Record<string, unknown>> }): StateAnswer {
  const email = input.email.trim();
  if (!EMAIL.test(email)) throw emailViolation('loginId.email', email);
  if (input.password.length < MIN_PASSWORD) throw ValidationFailure.field('password', `must be at least ${MIN_PASSWORD} characters`, 'MIN_LENGTH', { min: MIN_PASSWORD });
  checkCaptcha(s, input.captchaTokens);
  const { identities, members } = collections(s);
  if (identities.owner('email', email.toLowerCase()) !== undefined || members.owner('loginEmail', email.toLowerCase()) !== undefined) {
    throw fail(409, '-19995', `an identity with the e-mail ${email} exists already`);
  }
  const contact: Record<string, string> = {};
  if (input.firstName) contact.firstName = input.firstName;
  if (input.lastName) contact.lastName = input.lastName;
  const built = buildMember(members, { loginEmail: email, contact, ...(input.nickname ? { profile: { nickname: input.nickname } } : {}) } as Parameters<typeof buildMember>[1], { id: randomUUID(), contactId: randomUUID() }, s.now);
  const member = members.insert({ ...built, status: s.oauth.policy(s.site).requireOwnerApproval ? 'PENDING' : 'APPROVED' });
  const salt = randomBytes(16).toString('base64url');
  const identity = identities.insert({ id: randomUUID(), email, salt, passwordHash: hash(input.password, salt), memberId: member.id, emailVerified: false, createdDate: s.now, updatedDate: s.now });
  return stateOf(s, identity, member);
}

/** The identity of a login e-mail, or undefined. */
export function identityByEmail(s: IdentityScope, email: string): IdentityDoc | undefined {
  const { identities } = collections(s);
  const id = identities.owner('email', email.trim().toLowerCase());
  return id === undefined ? undefined : identities.get(id);
}

/**
 * Signs in with an e-mail and a password (see the module table).
 * @throws ApplicationFailure with the codes of the module table
 */
export function login(s: IdentityScope, input: { email: string; password: string; captchaTokens?: ReadonlyArray<Record<string, unknown>> }): StateAnswer {
  checkCaptcha(s, input.captchaTokens);
  const i = identityByEmail(s, input.email);
  if (!i) throw fail(404, '-19999', `no member of this site signs in with ${input.email.trim()}`);
  const expected = Buffer.from(i.passwordHash, 'base64url');
  const given = Buffer.from(hash(input.password, i.salt), 'base64url');
  if (!timingSafeEqual(expected, given)) throw fail(400, '-19976', 'the password is not correct');
  const member = collections(s).members.require(i.memberId);
  const answer = stateOf(s, i, member);
  if (answer.state === 'SUCCESS') collections(s).members.update({ ...member, lastLoginDate: s.now });
  return answer;
}

/**
 * Completes a pending verification with the code sent: a REQUIRE_EMAIL_VERIFICATION sign-in (the e-mail becomes
 * verified; a second factor may follow) or an MFA_CHALLENGE (SMS or CALL: signed in). The code is compared in
 * constant time; the {@link MAX_CODE_ATTEMPTS}th wrong code ends the pending verification (six digits must not
 * be guessable by trying), so the sign-in starts again with a new code.
 * @param factorType the factor the caller completes (`/v2/{factorType}/verify`); undefined: the pending one
 * @throws ApplicationFailure 404 NOT_FOUND for an unknown, expired or ended state token; 400 FACTOR_NOT_ENABLED
 *   for a factor other than the pending one's; 400 VERIFICATION_FAILED for a wrong code (`data.reason`
 *   WRONG_CODE, or TOO_MANY_ATTEMPTS when it ended the verification)
 */
export function verifyCode(s: IdentityScope, stateToken: string, code: string, factorType?: string): StateAnswer {
  const p = s.oauth.pending.get(stateToken);
  if (!p || p.site !== s.site || p.expiresAt < s.oauth.nowMs()) throw fail(404, 'NOT_FOUND', 'the verification request is unknown or has expired');
  const factor = p.factor ?? 'EMAIL';
  if (factorType !== undefined && factorType !== factor) {
    throw fail(400, 'FACTOR_NOT_ENABLED', `this sign-in waits for the ${factor} code, not ${factorType}`, { factorType, pending: factor });
  }
  if (!same(p.code, code.trim())) {
    p.attempts = (p.attempts ?? 0) + 1;
    if (p.attempts < MAX_CODE_ATTEMPTS) throw fail(400, 'VERIFICATION_FAILED', 'the verification code is not correct', { reason: 'WRONG_CODE' });
    s.oauth.pending.delete(stateToken);
    throw fail(400, 'VERIFICATION_FAILED', `the verification code is not correct; after ${MAX_CODE_ATTEMPTS} wrong codes the sign-in must start again`, { reason: 'TOO_MANY_ATTEMPTS' });
  }
  s.oauth.pending.delete(stateToken);
  const { identities, members } = collections(s);
  if (factor !== 'EMAIL') {
    const i = identities.require(p.identityId);
    return stateOf(s, i, members.require(i.memberId), true);
  }
  const i = identities.update({ ...identities.require(p.identityId), emailVerified: true, updatedDate: s.now });
  const m = members.require(i.memberId);
  members.update({ ...m, loginEmailVerified: true, updatedDate: s.now });
  return stateOf(s, i, members.require(i.memberId));
}

/**
 * Sends the code of a pending verification again (a new code replaces it).
 * @throws ApplicationFailure 404 NOT_FOUND for an unknown or expired state token
 */
export function resendCode(s: IdentityScope, stateToken: string): StateAnswer {
  const p = s.oauth.pending.get(stateToken);
  if (!p || p.site !== s.site || p.expiresAt < s.oauth.nowMs()) throw fail(404, 'NOT_FOUND', 'the verification request is unknown or has expired');
  const { identities, members } = collections(s);
  const i = identities.require(p.identityId);
  p.code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const factor = p.factor ?? 'EMAIL';
  sendCode(s, i, factor, p.code);
  const identity = identityJson(i, members.get(i.memberId));
  return factor === 'EMAIL' ? { state: 'REQUIRE_EMAIL_VERIFICATION', stateToken, identity } : { state: 'MFA_CHALLENGE', stateToken, identity, mfaChallengeData: challengeData(i) };
}

/**
 * Enables (or, with null, disables) the SMS or CALL second factor of the identity signing in with `email`. The
 * phone is `phone`, else the member's first contact phone.
 * @throws ApplicationFailure 404 IDENTITY_NOT_FOUND; ValidationFailure when there is no phone to send to
 */
export function setSecondFactor(s: IdentityScope, email: string, factorType: CodeFactor | null, phone?: string): IdentityDoc {
  const i = identityByEmail(s, email);
  if (!i) throw fail(404, 'IDENTITY_NOT_FOUND', `no member of this site signs in with ${email.trim()}`);
  const { identities, members } = collections(s);
  if (factorType === null) {
    const { secondFactor: _, ...rest } = i;
    return identities.update({ ...rest, updatedDate: s.now });
  }
  const to = (phone ?? members.get(i.memberId)?.contact.phones[0] ?? '').trim();
  if (!/\d{4}/.test(to)) throw ValidationFailure.field('phone', `the member has no phone to send ${factorType} codes to: give one`, 'REQUIRED_FIELD');
  return identities.update({ ...i, secondFactor: { factorType, phone: to }, updatedDate: s.now });
}

/** Sends a recovery link for `email` when an identity has it (silently nothing otherwise, as the platform). */
export function sendRecovery(s: IdentityScope, email: string, redirectUrl: string | undefined): void {
  const i = identityByEmail(s, email);
  if (!i) return;
  const token = s.oauth.issue({ typ: 'session', role: 'member', site: s.site, sub: `recover:${i.id}`, cid: '', sid: randomUUID() }, 3600).token;
  const link = `${s.oauth.url}/oauth2/recover?token=${encodeURIComponent(token)}${redirectUrl ? `&redirect=${encodeURIComponent(redirectUrl)}` : ''}`;
  s.oauth.send({ site: s.site, to: i.email, subject: 'Reset your password', text: `Set a new password: ${link} (valid for 1 hour)`, recoveryToken: token, link });
}

/** What a recovery link's token is: usable, spent by a recovery already, past its hour, or no recovery token at all. */
export type RecoveryTokenState = 'valid' | 'used' | 'expired' | 'invalid';

/**
 * The state of recovery token `token` (of any site: `site` in the answer), so a page can say precisely why a
 * link does not work: `used` when a recovery spent it (its session is revoked; said even once it has also
 * expired), `expired` past its hour, `invalid` when it is not a well-signed recovery token of a site that exists.
 */
export function recoveryToken(oauth: IdentityScope['oauth'], token: string): { state: RecoveryTokenState; site?: string } {
  const c = oauth.decode(token);
  if (!c || c.typ !== 'session' || !c.sub.startsWith('recover:') || !oauth.store.hasSite(c.site)) return { state: 'invalid' };
  if (oauth.isRevoked(c.sid)) return { state: 'used', site: c.site };
  if (c.exp * 1000 < oauth.nowMs()) return { state: 'expired', site: c.site };
  return { state: 'valid', site: c.site };
}

/** The refusal of a recovery token that is not `valid`, in the words of its state. */
export function recoveryRefusal(state: Exclude<RecoveryTokenState, 'valid'>): ApplicationFailure {
  const why = { used: 'was already used to set a password', expired: 'has expired (a link is valid for 1 hour)', invalid: 'is not valid' }[state];
  return fail(400, 'INVALID_RECOVERY_TOKEN', `the recovery token ${why}`, { reason: state.toUpperCase() });
}

/**
 * Sets a new password with a recovery token (single use: the token's session is revoked).
 * @returns the SUCCESS state with a session token of the member and the identity (the SDK's `recover` answers a
 *   StateMachineResponse whose `state` its typings mark non-null: @wix/auto_sdk_identity_recovery RecoverSignature)
 * @throws ApplicationFailure 400 INVALID_RECOVERY_TOKEN (`data.reason` USED, EXPIRED or INVALID: {@link recoveryRefusal});
 *   ValidationFailure for a short password
 */
export function recoverPassword(s: IdentityScope, token: string, password: string): StateAnswer {
  const t = recoveryToken(s.oauth, token);
  if (t.state !== 'valid' || t.site !== s.site) throw recoveryRefusal(t.state === 'valid' ? 'invalid' : t.state);
  const c = s.oauth.decode(token)!;
  if (password.length < MIN_PASSWORD) throw ValidationFailure.field('password', `must be at least ${MIN_PASSWORD} characters`, 'MIN_LENGTH', { min: MIN_PASSWORD });
  s.oauth.revoke(c.sid);
  const { identities } = collections(s);
  const i = identities.require(c.sub.slice('recover:'.length));
  const salt = randomBytes(16).toString('base64url');
  const updated = identities.update({ ...i, salt, passwordHash: hash(password, salt), updatedDate: s.now });
  return { state: 'SUCCESS', sessionToken: sessionToken(s, i.memberId), identity: identityJson(updated, collections(s).members.get(i.memberId)) };
}

/**
 * Changes the password of a member's identity.
 * @throws ApplicationFailure 404 IDENTITY_NOT_FOUND when the member has no identity; ValidationFailure (MIN_LENGTH)
 */
export function changePassword(s: IdentityScope, memberId: string, password: string): void {
  if (password.length < MIN_PASSWORD) throw ValidationFailure.field('newPassword', `must be at least ${MIN_PASSWORD} characters`, 'MIN_LENGTH', { min: MIN_PASSWORD });
  const { identities } = collections(s);
  const i = [...identities.all()].find((x) => x.memberId === memberId);
  if (!i) throw fail(404, 'IDENTITY_NOT_FOUND', 'the signed-in member has no password identity');
  const salt = randomBytes(16).toString('base64url');
  identities.update({ ...i, salt, passwordHash: hash(password, salt), updatedDate: s.now });
}

/**
 * Sign-on: the identity of an e-mail (created with its member when new, without a password) and a session
 * token for it. An elevated call.
 */
export function signOn(s: IdentityScope, email: string, verifyEmail: boolean): { sessionToken: string; identity: IdentityJson } {
  let i = identityByEmail(s, email);
  const { identities, members } = collections(s);
  if (!i) {
    if (!EMAIL.test(email.trim())) throw emailViolation('loginId.email', email);
    const existing = members.owner('loginEmail', email.trim().toLowerCase());
    const member = existing !== undefined ? members.require(existing) : members.insert(buildMember(members, { loginEmail: email.trim() } as Parameters<typeof buildMember>[1], { id: randomUUID(), contactId: randomUUID() }, s.now));
    const salt = randomBytes(16).toString('base64url');
    i = identities.insert({ id: randomUUID(), email: email.trim(), salt, passwordHash: hash(randomBytes(24).toString('base64url'), salt), memberId: member.id, emailVerified: verifyEmail, createdDate: s.now, updatedDate: s.now });
  }
  return { sessionToken: sessionToken(s, i.memberId), identity: identityJson(i, members.get(i.memberId)) };
}
