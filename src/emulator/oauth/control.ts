/**
 * The sign-in part of the control plane (admin key; docs/sign-in.md):
 *
 * - `GET /__emulator/auth-policy?site=ID` and `PUT /__emulator/auth-policy {site?, requireOwnerApproval?,
 *   requireEmailVerification?, requireCaptcha?, answerState?}`: a site's sign-in policy (default site when `site`
 *   is absent); `answerState` STATUS_CHECK or UNKNOWN_STATE (null: off) makes loginV2 and registerV2 answer that
 *   state, so a client's handling of it can be tested.
 * - `PUT /__emulator/identity-factor {site?, email, factorType: SMS|CALL|null, phone?}`: enables (null: disables)
 *   the second sign-in factor of the identity signing in with `email`; its codes go to `phone`, else the
 *   member's first contact phone (docs/wire.md §22 "Sign-in factors").
 * - `GET /__emulator/mail?site=ID&to=ADDRESS&limit=N`: the outbox (verification codes, recovery links, the
 *   participant notifications of bookings/notify.ts), oldest first; N at most 1000.
 * - `GET /__emulator/oauth-apps` and `POST /__emulator/oauth-apps {site?, name, redirectUris?}`: the OAuth apps,
 *   each with its `instanceId` (the client-credentials grant's `instance_id`); a new app answers its client
 *   secret once.
 */
import type { ControlState } from '../control-state.js';
import { ApplicationFailure, ValidationFailure } from '../errors.js';
import { CODE_FACTORS, setSecondFactor } from './identity.js';
import { FORCED_STATES, type SignInPolicy } from './model.js';
import { oauthOf } from './state.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Body = any;

function siteOf(emu: ControlState, given: unknown): string {
  const site = typeof given === 'string' && given !== '' ? given : emu.key.siteId;
  const found = emu.store.sites().find((s) => s.id === site || s.name.toLowerCase() === site.toLowerCase());
  if (!found) throw new ApplicationFailure(404, 'SITE_NOT_FOUND', `the account has no site ${site}`, { site });
  return found.id;
}

const POLICY_KEYS = ['requireOwnerApproval', 'requireEmailVerification', 'requireCaptcha'] as const;

export const oauthControlRoutes: Record<string, (emu: ControlState, body: Body, req: { query: URLSearchParams }) => object> = {
  'GET /__emulator/auth-policy': (emu, _b, req) => {
    const site = siteOf(emu, req.query.get('site'));
    return { site, policy: oauthOf(emu.store, emu.key.accountId).policy(site) };
  },
  'PUT /__emulator/auth-policy': (emu, body) => {
    const input = body && typeof body === 'object' && !Array.isArray(body) ? body : {};
    const site = siteOf(emu, input.site);
    const oauth = oauthOf(emu.store, emu.key.accountId);
    const policy: SignInPolicy = oauth.policy(site);
    for (const k of Object.keys(input)) {
      if (k === 'site') continue;
      if (k === 'answerState') {
        if (input[k] !== null && !(FORCED_STATES as readonly unknown[]).includes(input[k])) throw ValidationFailure.field(k, `must be one of ${FORCED_STATES.join(', ')}, or null`, 'INVALID');
        policy.answerState = input[k];
        continue;
      }
      if (!(POLICY_KEYS as readonly string[]).includes(k)) throw ValidationFailure.field(k, `unknown policy; known: ${POLICY_KEYS.join(', ')}, answerState`, 'INVALID');
      if (typeof input[k] !== 'boolean') throw ValidationFailure.field(k, 'must be true or false', 'INVALID');
      policy[k as (typeof POLICY_KEYS)[number]] = input[k];
    }
    oauth.setPolicy(site, policy);
    return { site, policy };
  },
  'PUT /__emulator/identity-factor': (emu, body) => {
    const input = body && typeof body === 'object' && !Array.isArray(body) ? body : {};
    const site = siteOf(emu, input.site);
    if (typeof input.email !== 'string' || !input.email.trim()) throw ValidationFailure.field('email', 'the login e-mail of the identity', 'REQUIRED_FIELD');
    if (input.factorType !== null && !(CODE_FACTORS as readonly unknown[]).includes(input.factorType)) throw ValidationFailure.field('factorType', `must be ${CODE_FACTORS.join(' or ')}, or null to disable`, 'INVALID_ENUM_VALUE');
    if (input.phone !== undefined && typeof input.phone !== 'string') throw ValidationFailure.field('phone', 'must be a phone number', 'INVALID');
    const oauth = oauthOf(emu.store, emu.key.accountId);
    const i = emu.store.tx(() => setSecondFactor({ oauth, store: emu.store, site, now: emu.store.now() }, input.email, input.factorType, input.phone));
    return { site, email: i.email, secondFactor: i.secondFactor ?? null };
  },
  'GET /__emulator/mail': (emu, _b, req) => {
    const site = req.query.get('site');
    const to = req.query.get('to')?.toLowerCase();
    const limit = Number(req.query.get('limit') ?? 50);
    if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw ValidationFailure.field('limit', 'must be an integer between 1 and 1000');
    const all = oauthOf(emu.store, emu.key.accountId)
      .outbox()
      .filter((m) => (!site || m.site === siteOf(emu, site)) && (!to || m.to.toLowerCase() === to));
    return { mail: all.slice(-limit) };
  },
  'GET /__emulator/oauth-apps': (emu) => {
    const oauth = oauthOf(emu.store, emu.key.accountId);
    return { apps: oauth.apps().map(({ secretHash, ...a }) => ({ ...a, instanceId: oauth.instanceIdOf({ secretHash, ...a }), confidential: secretHash !== undefined })) };
  },
  'POST /__emulator/oauth-apps': (emu, body) => {
    const input = body && typeof body === 'object' && !Array.isArray(body) ? body : {};
    const name = typeof input.name === 'string' ? input.name.trim() : '';
    if (!name) throw ValidationFailure.field('name', 'an app needs a name', 'REQUIRED_FIELD');
    const uris = input.redirectUris ?? [];
    if (!Array.isArray(uris) || uris.some((u: unknown) => typeof u !== 'string' || !/^https?:\/\//.test(u))) throw ValidationFailure.field('redirectUris', 'must be a list of http(s) URLs', 'INVALID');
    const oauth = oauthOf(emu.store, emu.key.accountId);
    const { app, clientSecret } = oauth.addApp(siteOf(emu, input.site), name, uris as string[]);
    return { app: { clientId: app.clientId, siteId: app.siteId, name: app.name, redirectUris: app.redirectUris, instanceId: oauth.instanceIdOf(app) }, clientSecret };
  },
};
