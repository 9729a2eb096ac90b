/**
 * The services family's wiring of the entity bulk engine: the port over `queryServices`, and the update,
 * delete and clone actions over `updateService`, `bulkUpdateServices` (chunks of 100, each item at its planned
 * revision), `bulkUpdateServicesByFilter` (a filter selection, chunk by chunk: see updateServices),
 * `bulkDeleteServices` and `cloneService` (docs/architecture.md "Bulk runs, the journal, history and undo").
 */
import type { ApiClient } from '../../../api/client.js';
import { invoke } from '../../../api/family.js';
import type { Filter } from '../../../api/schemas/common.js';
import { listPages } from '../../../api/paging.js';
import type { Service } from '../../../api/schemas/service.js';
import { MAX_BULK_SERVICES, serviceOps } from '../../../api/services.js';
import { bulkSender, deleteAction, eachSender, nextRevision, updateAction, type EntityAction } from '../../../bulk/actions.js';
import { createAction } from '../../../bulk/create-actions.js';
import type { ChunkRunner, SentOutcome, WorkItem } from '../../../bulk/execute.js';
import { type ChangeSet, maskString, updateBody } from '../../../bulk/changes.js';
import { isSingle, type JournalArgs } from '../../../bulk/journal.js';
import type { EntityPort } from '../../../bulk/port.js';
import { type EntityView, wireFilter } from '../../shared/entity-view.js';
import { viewPort } from '../../shared/view-port.js';
import type { ParticipantNotification } from '../../shared/notify.js';
import { SERVICE_VIEW } from './view.js';

/** Services as the bulk engine reads them: the port derived from the services view (commands/shared/view-port.ts). */
export function servicesPort(api: ApiClient): EntityPort {
  return viewPort(api, SERVICE_VIEW as EntityView<unknown>);
}

/**
 * `services update --set ...`, each form by the platform's own call (docs/wire.md "Operations and their verbs"):
 *
 * - one service (`update ID`, args without ids or filter): `PATCH /v2/services/{service.id}` (updateService) at the
 *   planned revision;
 * - `--ids`/`--ids-file`: `POST /v2/bulk/services/update` (bulkUpdateServices), 100 per request, each at its
 *   planned revision;
 * - `--filter`/`--where` (the filter is the selection): `POST /v2/bulk/services/update-by-filter`
 *   (bulkUpdateServicesByFilter), one job per chunk of 100 planned services ({@link updateByFilterSender}), each
 *   chunk read back after its call, whether it succeeded or not (ChunkRunner.readBack).
 */
export function updateServices(api: ApiClient, change: ChangeSet, args: JournalArgs): EntityAction {
  const mask = maskString(change);
  const patch = (item: WorkItem) => updateBody(item.id, item.revision ?? '', change) as { id: string; revision: string };
  if (!isSingle(args) && args.filter !== undefined) {
    return updateAction({ change, args, chunkSize: MAX_BULK_SERVICES, send: updateByFilterSender(api, change, args.filter), readBack: true });
  }
  const send = isSingle(args)
    ? eachSender(api, serviceOps.updateService, (item) => ({ service: patch(item), mask }), (reply) => ({ revision: reply.service.revision ?? undefined }))
    : bulkSender(api, serviceOps.bulkUpdateServices, (chunk) => ({ services: chunk.map((item) => ({ service: patch(item), mask })), returnEntity: false }), (item) => nextRevision(item.revision));
  return updateAction({ change, args, chunkSize: MAX_BULK_SERVICES, send });
}

/**
 * A chunk of a filtered update as the platform's update-by-filter job: `{filter: {$and: [<the selection>, {$or:
 * [{id, revision}, ...]}]}, service, mask}`, each planned service at its planned revision, so a service that
 * matches only now, no longer matches, or changed since the plan is never touched, and a chunk sent again (a retry,
 * `--resume`) matches only what the earlier sends left as they were: nothing is changed twice. The job's reply
 * (`{jobId}`) names no service, so every item is left to the read-back (`settle`): at planned revision + 1 with
 * every value, updated; at another revision, a conflict; still at the planned revision, sent again in a job over
 * only those (docs/wire.md "Operations and their verbs"). A call that fails throws, for the engine to read the
 * chunk back the same way.
 */
function updateByFilterSender(api: ApiClient, change: ChangeSet, selection: Filter): ChunkRunner['send'] {
  const { id: _id, revision: _revision, ...service } = updateBody('', '', change);
  const mask = maskString(change);
  const filter = wireFilter(SERVICE_VIEW as EntityView<unknown>, selection)!;
  return async (chunk, info) => {
    const planned = { $or: chunk.map((item) => ({ id: { $eq: item.id }, revision: { $eq: item.revision ?? '' } })) };
    await invoke(api, serviceOps.bulkUpdateServicesByFilter, { filter: { $and: [filter, planned] }, service, mask }, { signal: info.signal });
    return chunk.map((i): SentOutcome => ({ id: i.id, status: 'settle' }));
  };
}

/** Bulk updates where each service carries its own fields and mask (`sitectl undo` of an update): see patchAction. */
export function patchServicesSender(api: ApiClient, changeOf: (id: string) => ChangeSet): ChunkRunner['send'] {
  return bulkSender(
    api,
    serviceOps.bulkUpdateServices,
    (chunk) => ({
      services: chunk.map((item) => {
        const change = changeOf(item.id);
        return { service: updateBody(item.id, item.revision ?? '', change) as { id: string; revision: string }, mask: maskString(change) };
      }),
      returnEntity: false,
    }),
    (item) => nextRevision(item.revision),
  );
}

/**
 * A service's create body from its before-image (`sitectl undo` of a delete or a prune creates it again): the
 * service without what the platform sets itself (id, revision, dates, slugs, URLs).
 */
export function recreateBody(before: Record<string, unknown>): Record<string, unknown> {
  const { id: _id, revision: _r, createdDate: _c, updatedDate: _u, mainSlug: _m, supportedSlugs: _s, urls: _url, ...rest } = before;
  return rest;
}

/**
 * Bulk deletes of services by id, 100 per request (the sender of `services delete`), with the platform's delete
 * options (`preserveFutureSessionsWithParticipants`, `participantNotification`; none: the platform's defaults,
 * future sessions canceled and nobody notified).
 */
export function deleteServicesSender(api: ApiClient, options: { preserveFutureSessionsWithParticipants?: boolean; participantNotification?: ParticipantNotification } = {}): ChunkRunner['send'] {
  return bulkSender(api, serviceOps.bulkDeleteServices, (chunk) => ({ ids: chunk.map((i) => i.id), ...options }));
}

/** `services delete` over a selection: bulk deletes, 100 per request. */
export function deleteServices(api: ApiClient, args: JournalArgs): EntityAction {
  return deleteAction({
    args,
    chunkSize: MAX_BULK_SERVICES,
    send: deleteServicesSender(api),
  });
}

/** What each clone error (SDK bookings_services `CloneErrors`; docs/wire.md §14) says the copy lacks. */
const CLONE_LOSSES: Record<string, string> = {
  FORM: "its booking form: the copy has the site's default form",
  OPTIONS_AND_VARIANTS: 'its options and variants',
};

/**
 * A clone's per-item note from its reply's `errors`: `not copied: FORM (its booking form: ...), ...`; a code
 * the SDK's enum does not have yet is named as it came.
 */
export function cloneNote(errors: readonly string[]): string {
  return `not copied: ${errors.map((e) => (CLONE_LOSSES[e] ? `${e} (${CLONE_LOSSES[e]})` : e)).join(', ')}`;
}

/**
 * The clone errors that can be read back from a copy (for a copy whose clone reply was lost): `FORM` when its
 * booking form is not the source's (the platform gives the copy the site's default form). `OPTIONS_AND_VARIANTS`
 * cannot be read back (sitectl reads no service options and variants).
 */
export function lostInCopy(source: Pick<Service, 'form'>, copy: Pick<Service, 'form'>): string[] {
  const from = source.form?.id ?? undefined;
  return from !== undefined && from !== (copy.form?.id ?? undefined) ? ['FORM'] : [];
}

/** The name the platform gives a copy of a service (its cloneService: the source's name + " (copy)"). */
export function copyName(source: Service): string {
  return `${source.name ?? ''} (copy)`.slice(0, 400);
}

/** Every service of the site named `name`, oldest first (ids and revisions). */
export async function servicesNamed(api: ApiClient, name: string, signal?: AbortSignal): Promise<{ id: string; revision?: string | null }[]> {
  const out: { id: string; revision?: string | null }[] = [];
  for await (const page of listPages(api, serviceOps.queryServices, { filter: { name: { $eq: name } }, sort: [{ fieldName: 'createdDate', order: 'ASC' }], signal })) {
    for (const s of page.items) if (s.id) out.push({ id: s.id, revision: s.revision });
  }
  return out;
}

/**
 * `services clone --count N`: N copies of `source`, each by cloneService. `existing` are the services that had the
 * copies' name before the run (journaled, so `--resume` adopts only copies this run made; see createAction).
 */
export function cloneServices(api: ApiClient, source: Service, count: number, existing: string[]): EntityAction {
  return createAction({
    name: 'clone',
    source: source as Service & { id: string },
    count,
    args: { sourceId: source.id, count, existing },
    intendedName: copyName(source),
    findNamed: (name, signal) => servicesNamed(api, name, signal),
    async create(signal) {
      const reply = await invoke(api, serviceOps.cloneService, { sourceServiceId: source.id }, { signal });
      return { id: reply.service.id, revision: reply.service.revision, ...(reply.errors?.length ? { note: cloneNote(reply.errors) } : {}) };
    },
    // A copy adopted after a lost reply: what can be read back of its clone errors (docs/wire.md §14).
    async noteOf(createdId, signal) {
      const { service: copy } = await invoke(api, serviceOps.getService, { serviceId: createdId }, { signal });
      const errors = lostInCopy(source, copy);
      return errors.length ? cloneNote(errors) : undefined;
    },
  });
}
