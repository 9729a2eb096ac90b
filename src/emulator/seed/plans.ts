/**
 * Demo plans and coupons (docs/plans-orders.md "Plans"): six plans covering every pricing model (a monthly subscription
 * with a free trial, the primary one; a 12-month subscription that may start later; a 3-month pack bought
 * once; a hidden lifetime plan limited to one purchase per buyer; a free week limited to one; an archived
 * yearly plan) and five coupons (percent off, amount off, the first payment only for one plan, an expired one,
 * an inactive one). Deterministic: fixed names and prices, ids from the caller's PRNG, dates from the seed hour.
 */
import { orderBookOf } from '../orders/model.js';
import type { CouponDoc, PlanDoc } from '../plans/model.js';
import { buildPlan } from '../plans/rules.js';
import type { Store } from '../store/store.js';
import type { Prng } from './random.js';

const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();

/** The demo plans, in creation order; `primary`, `archived` and `public` are applied after creation. */
const PLANS = [
  {
    plan: { name: 'Gold Monthly', description: 'Unlimited classes and open gym, renewed every month until canceled.', perks: { values: ['Unlimited classes', 'Open gym', '2 guest passes a month'] }, pricing: { subscription: { cycleDuration: { count: 1, unit: 'MONTH' as const }, cycleCount: 0 }, price: { value: '49', currency: 'USD' }, freeTrialDays: 7 }, buyerCanCancel: true, termsAndConditions: 'Renews monthly. Cancel any time before the next payment.' },
    primary: true,
  },
  {
    plan: { name: 'Silver 12 Months', description: 'Eight classes a month for a year, paid monthly.', perks: { values: ['8 classes a month', 'Member prices in the shop'] }, pricing: { subscription: { cycleDuration: { count: 1, unit: 'MONTH' as const }, cycleCount: 12 }, price: { value: '29', currency: 'USD' } }, buyerCanCancel: true, allowFutureStartDate: true },
  },
  {
    plan: { name: '10-Class Pack', description: 'Ten classes to use within three months.', perks: { values: ['10 classes', 'Valid 3 months'] }, pricing: { singlePaymentForDuration: { count: 3, unit: 'MONTH' as const }, price: { value: '120', currency: 'USD' } }, buyerCanCancel: false },
  },
  {
    plan: { name: 'Founder Lifetime', description: 'Everything, forever. Offered to founding members only.', perks: { values: ['Everything', 'Forever'] }, pricing: { singlePaymentUnlimited: true, price: { value: '990', currency: 'USD' } }, buyerCanCancel: false, maxPurchasesPerBuyer: 1 },
    hidden: true,
  },
  {
    plan: { name: 'Free Trial Week', description: 'One week of classes, on the house.', perks: { values: ['Any class for 7 days'] }, pricing: { singlePaymentForDuration: { count: 1, unit: 'WEEK' as const }, price: { value: '0', currency: 'USD' } }, buyerCanCancel: true, maxPurchasesPerBuyer: 1 },
  },
  {
    plan: { name: 'Annual Classic', description: 'The old yearly membership, no longer sold.', perks: { values: ['Unlimited classes'] }, pricing: { subscription: { cycleDuration: { count: 1, unit: 'YEAR' as const }, cycleCount: 0 }, price: { value: '399', currency: 'USD' } }, buyerCanCancel: true },
    archived: true,
  },
];

/** The seeded plans by role, for the orders seed. */
export interface SeededPlans {
  gold: PlanDoc;
  silver: PlanDoc;
  pack: PlanDoc;
  lifetime: PlanDoc;
  freeWeek: PlanDoc;
  annual: PlanDoc;
}

/**
 * Seeds the six plans and five coupons of one site. Events are the caller's to mute.
 * @param base the seed hour (epoch ms)
 */
export function seedPlans(store: Store, site: string, base: number, rnd: Prng): SeededPlans {
  const created = iso(base - 200 * DAY);
  const book = orderBookOf({ db: (def) => store.collection(def).at(site), now: created, store, site }, () => rnd.uuid());
  const docs = PLANS.map((p, i) => {
    const doc = buildPlan({ ...book, now: iso(base - (200 - i) * DAY) }, p.plan);
    return book.plans.insert({ ...doc, primary: Boolean(p.primary), public: !p.hidden, archived: Boolean(p.archived) });
  });
  const [gold, silver, pack, lifetime, freeWeek, annual] = docs as [PlanDoc, PlanDoc, PlanDoc, PlanDoc, PlanDoc, PlanDoc];
  const coupons: Array<Omit<CouponDoc, 'id'>> = [
    { code: 'WELCOME10', name: '10% off every payment', percentOff: 10, active: true },
    { code: 'SAVE5', name: '$5 off every payment', moneyOffAmount: '5', active: true },
    { code: 'GOLDSTART', name: 'Half price first month of Gold', percentOff: 50, limitedToCycles: 1, planIds: [gold.id], active: true },
    { code: 'SUMMER20', name: '20% off (summer, expired)', percentOff: 20, expirationDate: iso(base - 30 * DAY), active: true },
    { code: 'STAFF15', name: '15% off for staff (paused)', percentOff: 15, active: false },
  ];
  for (const c of coupons) book.coupons.insert({ id: rnd.uuid(), ...c, createdDate: created, updatedDate: created });
  return { gold, silver, pack, lifetime, freeWeek, annual };
}
