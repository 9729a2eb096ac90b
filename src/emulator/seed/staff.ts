/**
 * The staff members of the demo (docs/architecture.md "The emulator"): per site `counts.staff` people (at least the
 * eight of catalog.ts `STAFF`; more get a round number), each with an image, a resource, the working hours of
 * seed/bookings.ts `seedWorkingHours` and, for the third, a vacation. The staff family's seed step.
 */
import type { SeedStep } from '../family.js';
import { catalogOf } from '../services/model.js';
import { seedWorkingHours } from './bookings.js';
import { STAFF } from './catalog.js';
import { DAY, furnishedAt, iso, media } from './shared.js';

/** Seeds the staff members of `step.site`, recorded in `step.made` (the services step gives them services). */
export function seedStaff(step: SeedStep): void {
  const { rnd, base } = step;
  const furnished = furnishedAt(base);
  const cat = catalogOf({ db: (def) => step.store.collection(def).at(step.site), now: furnished }, () => rnd.uuid());
  const opts = { staff: step.counts.staff };
  const people = Array.from({ length: opts.staff }, (_, i) => {
    const s = STAFF[i % STAFF.length]!;
    const round = Math.floor(i / STAFF.length);
    return round === 0 ? s : { name: `${s.name.split(' ')[0]} ${s.name.split(' ')[1]![0]}. ${round + 1}`.replace(/\. (\d+)$/, '. $1'), role: s.role };
  });
  const staff = people.map((s, i) => {
    const handle = s.name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
    return cat.staff.insert({
      id: rnd.uuid(),
      name: s.name,
      description: s.role,
      email: `${handle.replace(/-/g, '.')}@demo-studio.example.com`,
      phone: `+1 415 555 01${String(30 + i)}`,
      mainMedia: media(rnd.uuid(), `staff/${handle}`, s.name),
      resourceId: rnd.uuid(),
      workingHours: seedWorkingHours(i),
      ...(i === 2 ? { timeOff: [{ startDate: iso(base + 9 * DAY), endDate: iso(base + 12 * DAY), reason: 'Vacation' }] } : {}),
      createdDate: furnished,
    });
  });
  step.made.set('staffMembers', staff);
}
