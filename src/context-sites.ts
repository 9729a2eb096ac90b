/**
 * The sites of the profile's account (docs/catalogue.md "Sites of an account"): the account-level sites query, and the site an id or
 * a name given to `--site` / `--to-site` stands for. Used by context.ts only.
 */
import type { ApiClient } from './api/client.js';
import { UserError } from './core/errors.js';

/** A site of the account: its id and name. */
export interface SiteRef {
  id: string;
  name: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The account's sites through the account-level sites query (every page).
 * @throws UserError (exit 2) when the key's account id is unknown (SITECTL_ACCOUNT_ID)
 */
export async function listSites(api: ApiClient, signal: AbortSignal): Promise<SiteRef[]> {
  if (!api.accountId) {
    throw new UserError('listing the sites of the account needs its id', 'set SITECTL_ACCOUNT_ID (the account of the API key), or give site ids');
  }
  const [{ sitesFamily }, { listPages }] = await Promise.all([import('./api/sites.js'), import('./api/paging.js')]);
  const out: SiteRef[] = [];
  for await (const page of listPages(api, sitesFamily.operations.querySites, { signal })) for (const s of page.items) out.push({ id: s.id, name: s.displayName ?? s.name ?? s.id });
  return out;
}

/**
 * The site `given` names: an id, or a name (case-insensitive) looked up among the account's sites.
 * @param sites the account's sites (when they cannot be listed, a full site id is used as given)
 * @throws UserError (exit 2) naming `flag` for a site the account does not have, or a name several sites bear
 */
export async function findSite(sites: () => Promise<SiteRef[]>, given: string, flag: string): Promise<SiteRef> {
  const text = given.trim();
  let all: SiteRef[];
  try {
    all = await sites();
  } catch (err) {
    if (err instanceof UserError && UUID.test(text)) return { id: text, name: text };
    throw err;
  }
  const byId = all.find((s) => s.id === text);
  if (byId) return byId;
  const named = all.filter((s) => s.name.toLowerCase() === text.toLowerCase());
  if (named.length > 1) throw new UserError(`${flag}: ${named.length} sites of the account are named '${given}'`, `give the id: ${named.map((s) => s.id).join(', ')}`);
  if (!named[0]) throw new UserError(`${flag}: the account has no site '${given}'`, `its sites: ${all.map((s) => `${s.name} (${s.id})`).join(', ')}`);
  return named[0];
}
