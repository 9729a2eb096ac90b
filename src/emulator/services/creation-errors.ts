/**
 * The services family's named creation errors (seed A §5, §8; docs/wire.md §14 "Clone and
 * resource-creation errors"), each answered when its condition arises and each injectable with the emulator's
 * rule faults (faults.ts `cloneErrors`, `resourceError`; docs/manual/emulator.md "Faults"):
 *
 * | error | how it is answered | its condition on the emulator |
 * | --- | --- | --- |
 * | clone `FORM` | in `cloneService`'s `errors`; the copy is made with the site's default form | the source has a booking form other than the site's default (the SDK: the form is never cloned) |
 * | clone `OPTIONS_AND_VARIANTS` | in `errors`; the copy is made | none: the emulator serves no service options and variants, so only the fault gives it |
 * | `UNKNOWN_CREATE_RESOURCE_TYPE_ERROR` | 400, the service is not created | a `serviceResources[].resourceType.id` that is not a resource type of the site |
 * | `FAILED_TO_CREATE_RESOURCES` | 400, the service is not created | a `serviceResources[].resourceIds.values` id that is not a resource of that type |
 *
 * The emulator serves no Resource Types API: a site's one resource type is its staff's
 * ({@link STAFF_RESOURCE_TYPE_ID}, named `Staff`), whose resources are the staff members' resources (the staff
 * API's `resource.id` with RESOURCE_DETAILS). An assumption where the specification names the codes only.
 */
import { ApplicationFailure } from '../errors.js';
import { STAFF_RESOURCE_TYPE_ID } from '../../api/schemas/time-slot.js';
import { CLONE_ERRORS, type CloneError, type Faults } from '../faults.js';
import type { Catalog, ServiceDoc } from './model.js';


/** The site's default booking form (flagged `default`, else the first), as a new service gets it. */
function defaultFormId(cat: Catalog): string | undefined {
  let first: string | undefined;
  for (const f of cat.forms.all()) {
    if (f.default) return f.id;
    first ??= f.id;
  }
  return first;
}

/**
 * What a copy of `source` will lack (SDK bookings_services `CloneServiceResponse.errors`), in the SDK's order:
 * FORM when the source's form is not the site's default, and what the fault adds.
 */
export function cloneErrorsOf(cat: Catalog, source: ServiceDoc, faults: Pick<Faults, 'cloneErrors'>): CloneError[] {
  const found = new Set<CloneError>(faults.cloneErrors);
  const form = (source.form as { id?: string } | undefined)?.id;
  if (form && form !== defaultFormId(cat)) found.add('FORM');
  return CLONE_ERRORS.filter((e) => found.has(e));
}

/** A copy as the clone makes it when the form was not copied: the site's default form in its place. */
export function withoutForm(cat: Catalog, doc: ServiceDoc): ServiceDoc {
  const id = defaultFormId(cat);
  const out = { ...doc };
  if (id) out.form = { id };
  else delete out.form;
  return out;
}

/** The ids of the resources of the site's staff resource type (each staff member's resource). */
function staffResourceIds(cat: Catalog): Set<string> {
  return new Set([...cat.staff.all()].map((s) => (s.resourceId as string | undefined) ?? s.id));
}

/**
 * Checks that the platform could create the resources `service` needs (see the module table); a fault's
 * `resourceError` fails every service.
 * @param at the service's field path in the request (`service`, `services[2]`), named in the error's data
 * @throws ApplicationFailure 400 UNKNOWN_CREATE_RESOURCE_TYPE_ERROR or FAILED_TO_CREATE_RESOURCES
 */
export function checkResources(cat: Catalog, service: ServiceDoc, faults: Pick<Faults, 'resourceError'>, at = 'service'): void {
  if (faults.resourceError) {
    throw new ApplicationFailure(400, faults.resourceError, `the resources of the service could not be created (${faults.resourceError}, an injected fault)`, { field: `${at}.serviceResources` });
  }
  const entries = (service.serviceResources as Array<{ resourceType?: { id?: string | null }; resourceIds?: { values?: string[] } }> | undefined) ?? [];
  let known: Set<string> | undefined;
  entries.forEach((r, i) => {
    const type = r.resourceType?.id;
    if (type !== STAFF_RESOURCE_TYPE_ID) {
      throw new ApplicationFailure(400, 'UNKNOWN_CREATE_RESOURCE_TYPE_ERROR', `serviceResources[${i}] names resource type ${type ?? '(none)'}, which is not a resource type of the site`, {
        field: `${at}.serviceResources[${i}].resourceType.id`,
        resourceTypeId: type ?? null,
      });
    }
    known ??= staffResourceIds(cat);
    const missing = (r.resourceIds?.values ?? []).filter((id) => !known!.has(id));
    if (missing.length) {
      throw new ApplicationFailure(400, 'FAILED_TO_CREATE_RESOURCES', `serviceResources[${i}] names ${missing.join(', ')}, not a resource of its type`, {
        field: `${at}.serviceResources[${i}].resourceIds.values`,
        resourceIds: missing,
      });
    }
  });
}
