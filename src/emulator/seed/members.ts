/**
 * Demo members (docs/members.md "State table"): `count` members of one site across every stored status (APPROVED mostly,
 * one in ten PENDING, one in twenty BLOCKED, one in twenty-five OFFLINE), public and private, active and muted,
 * with contacts (phones, e-mails, addresses, custom fields) and profiles (nickname, unique slug, photo, title).
 *
 * Deterministic: the same count gives the same ids, names and dates (its own seeded PRNG, so members do not
 * shift the ids of the services or bookings seeded beside them); every date is an offset from the seed hour.
 * Linear time: each member is one insert in the caller's transaction, inside a bulk load (Store.bulkLoad: the
 * query table's indexes are built once at the end); a million members take well under two minutes.
 */
import type { MemberDoc, MemberStatusDoc } from '../members/model.js';
import { membersOf } from '../members/model.js';
import type { SeedStep } from '../family.js';
import type { Store } from '../store/store.js';
import { Prng } from './random.js';

/** Members in the demo seed unless told otherwise. */
export const DEFAULT_SEED_MEMBERS = 300;
/** Most members a seed may ask for. */
export const MAX_SEED_MEMBERS = 1_000_000;

const MEMBERS_PRNG_SEED = 20251107;
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

const FIRST = ['Ada', 'Bruno', 'Carla', 'Dmitri', 'Elena', 'Farah', 'Gus', 'Hiro', 'Ines', 'Jonas', 'Keiko', 'Luis', 'Maya', 'Nils', 'Olga', 'Priya', 'Quinn', 'Rosa', 'Sami', 'Tess', 'Uma', 'Viktor', 'Wen', 'Ximena', 'Yusuf', 'Zara'];
const LAST = ['Abbott', 'Baker', 'Castro', 'Dubois', 'Eriksen', 'Fischer', 'Gomez', 'Haddad', 'Ivanova', 'Jones', 'Kowalski', 'Larsen', 'Moreau', 'Novak', 'Okafor', 'Park', 'Quist', 'Reyes', 'Sato', 'Tanaka'];
const TITLES = ['Yoga enthusiast', 'Marathon runner', 'Pilates regular', 'Early riser', 'Weekend warrior', 'Dance lover', 'Climber', 'Swimmer'];
const CITIES = [
  { city: 'San Francisco', postalCode: '94110', street: 'Valencia St' },
  { city: 'Oakland', postalCode: '94612', street: 'Broadway' },
  { city: 'Berkeley', postalCode: '94704', street: 'Telegraph Ave' },
];
const COMPANIES = ['Acme Corp', 'Globex', 'Initech', 'Umbrella Health', 'Stark Studio'];

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/**
 * A version-4-shaped UUID from four draws of `rnd` (32 bits each): the seed makes two or three per member, and
 * Prng.uuid's 32 draws would be a sixth of the time of a 100,000-member seed.
 */
function uuidOf(rnd: Prng): string {
  const b: number[] = [];
  for (let w = 0; w < 4; w++) {
    const x = Math.floor(rnd.next() * 4294967296);
    b.push(x >>> 24, (x >>> 16) & 255, (x >>> 8) & 255, x & 255);
  }
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = b.map((x) => HEX[x]!);
  return `${h[0]}${h[1]}${h[2]}${h[3]}-${h[4]}${h[5]}-${h[6]}${h[7]}-${h[8]}${h[9]}-${h[10]}${h[11]}${h[12]}${h[13]}${h[14]}${h[15]}`;
}

/** The stored status of the i-th seeded member: a fixed pattern, so every count has the same proportions. */
export function seededStatus(i: number): MemberStatusDoc {
  if (i % 10 === 3) return 'PENDING';
  if (i % 20 === 7) return 'BLOCKED';
  if (i % 25 === 11) return 'OFFLINE';
  return 'APPROVED';
}

/**
 * Seeds `count` members into `site` (inside the caller's transaction; events are the caller's choice).
 * @param base the seed hour (epoch ms): members were created over the two years before it
 * @throws Error when count is not an integer between 0 and {@link MAX_SEED_MEMBERS}
 */
export function seedMembers(store: Store, site: string, base: number, count: number): void {
  if (!Number.isInteger(count) || count < 0 || count > MAX_SEED_MEMBERS) throw new Error(`seed members must be an integer between 0 and ${MAX_SEED_MEMBERS}, got ${count}`);
  if (count === 0) return;
  const members = membersOf(store, site);
  const rnd = new Prng(MEMBERS_PRNG_SEED);
  const spacing = Math.max(1, Math.floor((730 * DAY) / count));
  const pairs = FIRST.length * LAST.length;
  store.bulkLoad(() => {
  for (let i = 0; i < count; i++) {
    const firstName = FIRST[i % FIRST.length]!;
    const lastName = LAST[Math.floor(i / FIRST.length) % LAST.length]!;
    const round = Math.floor(i / pairs);
    const handle = `${firstName}-${lastName}${round > 0 ? `-${round + 1}` : ''}`.toLowerCase();
    const email = `${handle.replace(/-/g, '.')}@example.com`;
    const status = seededStatus(i);
    const created = base - 730 * DAY + i * spacing;
    const id = uuidOf(rnd);
    const contactId = uuidOf(rnd);
    const withPhone = rnd.next() < 0.8;
    const withAddress = rnd.next() < 0.5;
    const where = CITIES[rnd.int(0, CITIES.length - 1)]!;
    const doc: MemberDoc = {
      id,
      loginEmail: email,
      loginEmailVerified: status !== 'PENDING' && rnd.next() < 0.9,
      status,
      contactId,
      contact: {
        contactId,
        firstName,
        lastName,
        phones: withPhone ? [`+1 415 555 ${String(1000 + (i % 9000)).padStart(4, '0')}`] : [],
        emails: [email],
        addresses: withAddress
          ? [{ id: uuidOf(rnd), addressLine: `${rnd.int(1, 999)} ${where.street}`, streetAddress: { number: String(rnd.int(1, 999)), name: where.street }, city: where.city, subdivision: 'US-CA', country: 'US', postalCode: where.postalCode }]
          : [],
        ...(rnd.next() < 0.3 ? { company: COMPANIES[rnd.int(0, COMPANIES.length - 1)]!, jobTitle: 'Member' } : {}),
        ...(rnd.next() < 0.4 ? { birthdate: `19${rnd.int(60, 99)}-0${rnd.int(1, 9)}-1${rnd.int(0, 9)}` } : {}),
        customFields: rnd.next() < 0.25 ? { 'custom.referral': { name: 'Referral', value: { text: rnd.next() < 0.5 ? 'friend' : 'instagram' } } } : {},
      },
      profile: {
        nickname: `${firstName} ${lastName[0]}.${round > 0 ? ` ${round + 1}` : ''}`,
        slug: handle,
        ...(rnd.next() < 0.6 ? { photo: { id: uuidOf(rnd), url: `https://static.example.com/members/${handle}.jpg`, height: 400, width: 400, offsetX: 0, offsetY: 0 } } : {}),
        ...(rnd.next() < 0.5 ? { title: TITLES[rnd.int(0, TITLES.length - 1)]! } : {}),
      },
      privacyStatus: status === 'OFFLINE' || rnd.next() < 0.3 ? 'PRIVATE' : 'PUBLIC',
      activityStatus: rnd.next() < 0.1 ? 'MUTED' : 'ACTIVE',
      createdDate: new Date(created).toISOString(),
      updatedDate: new Date(created).toISOString(),
      ...(status === 'APPROVED' || status === 'BLOCKED' ? { lastLoginDate: new Date(created + rnd.int(1, 600) * 60 * MINUTE).toISOString() } : {}),
    };
    members.insert(doc);
  }
  });
}

/** The members family's seed step: `counts.members` members of every status on the default site. */
export function seedMembersStep(step: SeedStep): void {
  if (step.main) seedMembers(step.store, step.site, step.base, step.counts.members);
}
