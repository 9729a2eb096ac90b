/**
 * Which stored session a command works with: the resolved profile, the site chosen for it (`--site ID|NAME`,
 * else SITECTL_SITE_ID, else the profile's own) and the sessions-file key of the profile on that site
 * (core/sessions.ts `findSession`). A stored session of another site is never this one: its tokens are not
 * read here, and writes through {@link SessionTarget.write} record the chosen site. Kept light (no API family)
 * for `auth status` and `logout`.
 */
import { findSite } from '../../../context-sites.js';
import { resolveProfile, type Context, type ResolvedProfile, type SiteRef } from '../../../context.js';
import { UserError } from '../../../core/errors.js';
import { findSession, writeSession, writeSiteSession, type ProfileSession, type SessionPlace } from '../../../core/sessions.js';

/** The profile, the site chosen for it and where that site's session is kept. */
export interface SessionTarget {
  profile: ResolvedProfile;
  /** The chosen site (`--site`, else SITECTL_SITE_ID, else the profile's); undefined when the profile has none. */
  site?: SiteRef;
  /** The sessions-file key of the profile on that site. */
  key: string;
  /** How messages name it: `profile 'local'`, or `profile 'local' on site Uptown` for another site than its own. */
  label: string;
  /** The chosen site in words (`Uptown (id)`, or the id), for hints; undefined without a site. */
  siteName?: string;
  /** The profile's session on the chosen site ({} when it holds none there; an app's credentials are kept). */
  read(): ProfileSession;
  /** Rewrites the profile's session on the chosen site (core/sessions.ts `writeSiteSession`). */
  write(change: (current: ProfileSession) => ProfileSession | undefined): ProfileSession | undefined;
}

/**
 * The site `--site` names for the profile: on the local emulator among the sites of its admin-key.json (no
 * request), else among the account's sites (the API key's sites query; a full site id is taken as given).
 * @throws UserError (exit 2) for a site the account does not have, or a name that cannot be looked up
 */
async function chosenSite(ctx: Context, profile: ResolvedProfile): Promise<SiteRef | undefined> {
  const given = ctx.flags.site;
  const known = profile.sites;
  if (!given) {
    if (!profile.siteId) return undefined;
    return known?.find((s) => s.id === profile.siteId) ?? { id: profile.siteId, name: profile.siteId };
  }
  if (known) return findSite(() => Promise.resolve(known), given, '--site');
  return findSite(
    async () => {
      if (!profile.apiKey) throw new UserError(`--site '${given}': the profile has no API key to look the site's name up with`, 'give the site id');
      return ctx.sites();
    },
    given,
    '--site',
  );
}

/**
 * The resolved profile, its chosen site and the key of its session there.
 * @throws UserError (exit 2) for an unknown profile or site
 */
export async function sessionTarget(ctx: Context, opts: { startEmulator: boolean }): Promise<SessionTarget> {
  const profile = await resolveProfile(ctx, opts);
  const site = await chosenSite(ctx, profile);
  const place: SessionPlace = { profile: profile.name, siteId: site?.id, homeSiteId: profile.homeSiteId };
  const found = findSession(ctx.env, place);
  const { key } = found;
  // A session written before sessions kept their site, found under the profile's name, is taken as its own site's
  // (the site it had then is not known): recorded now, so a later run naming another site does not take it too.
  if (key === profile.name && site && found.session.siteId === undefined && (found.session.member || found.session.visitor || found.session.pending)) {
    writeSession(ctx.env, key, (s) => ({ ...s, siteId: site.id }));
  }
  const siteName = site ? (site.name === site.id ? site.id : `${site.name} (${site.id})`) : undefined;
  const label = key === profile.name ? `profile '${profile.name}'` : `profile '${profile.name}' on site ${siteName}`;
  return {
    profile,
    site,
    key,
    label,
    siteName,
    read: () => findSession(ctx.env, place).session,
    write: (change) => writeSiteSession(ctx.env, key, place, change),
  };
}
