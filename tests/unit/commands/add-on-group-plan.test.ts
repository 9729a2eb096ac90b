/**
 * The add-on group plan of a catalogue apply (services/shared/add-on-group-plan.ts; docs/catalogue.md "Add-on
 * groups"): add-ons matched by name, then terms; the calls that take a service's groups to the wanted ones; the
 * plan's refusals before any write; and the undo's inverse of a groups step (apply-undo.ts).
 */
import { describe, expect, it } from 'vitest';
import type { Service } from '../../../src/api/schemas/service.js';
import { groupCalls, matchAddOn, planGroups, type WireGroup } from '../../../src/commands/services/shared/add-on-group-plan.js';
import { applyInverse, mergeInverses } from '../../../src/commands/services/shared/apply-undo.js';
import type { Catalogue, PortableService, SiteCatalogue } from '../../../src/commands/services/shared/catalogue.js';
import type { JournalState } from '../../../src/bulk/journal.js';

const oil = { name: 'Oil', price: { value: '4', currency: 'USD' }, maxQuantity: 3 };
const site = [
  { id: 'oil-9', name: 'Oil', price: { value: '9', currency: 'USD' }, maxQuantity: 3 },
  { id: 'oil-4', name: 'Oil', price: { value: '4.00', currency: 'USD' }, maxQuantity: 3 },
  { id: 'towel', name: 'Towel', price: { value: '2', currency: 'USD' }, maxQuantity: 1 },
];

const group = (name: string, addOnIds: string[] = [], more: Partial<WireGroup> = {}): WireGroup => ({ name, maxNumberOfAddOns: null, prompt: null, addOnIds, ...more });

function catalogue(services: PortableService[]): Catalogue {
  return { kind: 'sitectl/services-catalogue', version: 1, services };
}

/** A site holding one service `massage` with `groups`. */
function siteWith(groups: WireGroup[]): SiteCatalogue {
  const service = { id: 'svc-1', revision: '3', name: 'Massage', mainSlug: { name: 'massage' }, addOnGroups: groups.map((g, n) => ({ id: `g${n}`, ...g })) } as unknown as Service;
  return { catalogue: catalogue([{ slug: 'massage', name: 'Massage', type: 'APPOINTMENT' }]), furniture: {} as SiteCatalogue['furniture'], services: new Map([['massage', service]]) };
}

describe('matchAddOn', () => {
  it('takes the one add-on of the name, or among several the one of the same terms (price as a number)', () => {
    expect(matchAddOn(site, { name: 'Towel', price: { value: '3', currency: 'USD' }, maxQuantity: 1 })).toEqual({ id: 'towel' });
    expect(matchAddOn(site, oil)).toEqual({ id: 'oil-4' });
    expect(matchAddOn(site, { ...oil, price: { value: '5', currency: 'USD' } })).toEqual({ ambiguous: 2 });
    expect(matchAddOn(site, { ...oil, name: 'Hot stones' })).toEqual({ missing: true });
  });
});

describe('groupCalls', () => {
  it('deletes groups not wanted, updates the changed fields of a group of the same name, creates the new ones', () => {
    const have = [group('Extras', ['a', 'b'], { maxNumberOfAddOns: 2 }), group('Old'), group('Same', ['a'])];
    const want = [group('Extras', ['b', 'a'], { maxNumberOfAddOns: 2, prompt: 'Pick' }), group('Same', ['a']), group('New', ['c'])];
    expect(groupCalls(have, want)).toEqual({ remove: ['Old'], update: [{ name: 'Extras', fields: ['prompt', 'addOnIds'] }], create: ['New'] });
    expect(groupCalls(want, want)).toEqual({ remove: [], update: [], create: [] });
  });
});

describe('planGroups', () => {
  const wanted = (groups: unknown[]) => catalogue([{ slug: 'massage', name: 'Massage', type: 'APPOINTMENT', addOnGroups: groups }]);
  const opts = { prune: false, createMissing: false, site: 'Uptown' };

  it('keeps the site groups the file does not name (deleted with prune), and plans nothing when they hold', () => {
    const current = siteWith([group('Site only')]);
    const kept = planGroups(wanted([{ name: 'Extras', addOns: [oil] }]), current, site, opts);
    expect(kept.items).toHaveLength(1);
    expect(kept.items[0]).toMatchObject({ id: 'svc-1', revision: '3', after: { op: 'groups', slug: 'massage', groups: [group('Extras', ['oil-4']), group('Site only')] }, before: { groups: [group('Site only')] } });
    expect(kept.rows).toEqual([{ action: 'create add-on group', slug: 'massage', fields: 'Extras' }]);
    const pruned = planGroups(wanted([{ name: 'Extras', addOns: [oil] }]), current, site, { ...opts, prune: true });
    expect(pruned.rows.map((r) => r.action)).toEqual(['delete add-on group', 'create add-on group']);
    expect(planGroups(wanted([{ name: 'Site only' }]), current, site, opts).items).toEqual([]);
  });

  it('refuses a missing or ambiguous add-on (one line naming it, the service and the site) unless --create-missing makes it; more than 3 groups', () => {
    const current = siteWith([]);
    expect(() => planGroups(wanted([{ name: 'Extras', addOns: [{ ...oil, name: 'Hot stones' }] }]), current, site, opts)).toThrow(/^service massage: add-on "Hot stones" \(4 USD, up to 3\) is not on site Uptown; nothing was changed$/);
    expect(() => planGroups(wanted([{ name: 'Extras', addOns: [{ ...oil, price: { value: '5', currency: 'USD' } }] }]), current, site, opts)).toThrow(/could be any of 2 add-ons/);
    const made = planGroups(wanted([{ name: 'A', addOns: [{ ...oil, name: 'Hot stones' }] }, { name: 'B', addOns: [{ ...oil, name: 'Hot stones' }] }]), current, site, { ...opts, createMissing: true });
    expect(made.create).toEqual([{ ...oil, name: 'Hot stones' }]);
    expect(() => planGroups(wanted([{ name: 'A' }, { name: 'B' }]), siteWith([group('C'), group('D')]), site, opts)).toThrow(/would have 4 add-on groups/);
  });
});

describe('the undo of a groups step', () => {
  it("sets back the groups it had; a service's create or update is then checked against the revision the groups step left", () => {
    const state = (lines: { planned: object; result: object }[]) =>
      ({ planned: lines.map((l) => l.planned), results: new Map(lines.map((l) => [(l.planned as { id: string }).id, l.result])) }) as unknown as JournalState;
    const services = applyInverse(state([{ planned: { id: 'create:massage', after: { op: 'create', slug: 'massage', service: {} } }, result: { outcome: 'created', createdId: 'svc-1', revision: '1' } }]));
    const groups = applyInverse(state([{ planned: { id: 'svc-1', after: { op: 'groups', slug: 'massage', groups: [group('Extras')] }, before: { groups: [] } }, result: { outcome: 'updated', revision: '2' } }]));
    expect(groups.groups).toEqual([{ id: 'svc-1', left: '2', slug: 'massage', before: [] }]);
    expect(mergeInverses([services, groups]).created).toEqual([{ id: 'svc-1', left: '2', slug: 'massage' }]);
  });
});
