/**
 * Chunk runners of the three bulk actions (issue 2 §5), each safe to send again:
 *
 * - update: every item carries the revision seen at plan time, so the platform applies it at most once; a
 *   revision mismatch (HTTP 409 / REVISION_MISMATCH, wire §9) is then told apart: if the service is now at
 *   planned revision + 1 and every masked path holds the planned value, an earlier attempt of ours was applied
 *   (a 5xx or dropped connection after the commit, or a run killed with the chunk in flight) -> `updated`;
 *   otherwise someone else changed it -> `conflict`, never overwritten.
 * - delete: a service that is gone when its delete is (re)sent was deleted -> `deleted` (the target existed at
 *   plan time; the earlier attempt, or someone else, removed it, and either way the goal holds).
 * - clone: not idempotent on the platform, so it is never repeated automatically: a failure is reported and the
 *   journal's `created` lines make `--resume` create only the clones still missing.
 */
import type { Service } from '../api/schemas/service.js';
import { type ChangeSet, isApplied, maskString, updateBody } from './changes.js';
import { errorText, type ChunkRunner, type ItemResult, type WorkItem } from './execute.js';
import type { BulkItemOutcome, ServicesPort } from './port.js';

/** True when a bulk item error or a thrown error is the platform's stale-revision answer (HTTP 409). */
export function isRevisionMismatch(error: { code?: string; data?: unknown; status?: number } | null | undefined): boolean {
  if (!error) return false;
  if (error.status === 409) return true;
  const code = (error.code ?? '').toUpperCase();
  return code.includes('REVISION') || code === 'CONFLICT';
}

/** True when a bulk item error says the entity does not exist (HTTP 404). */
export function isNotFound(error: { code?: string; status?: number } | null | undefined): boolean {
  if (!error) return false;
  if (error.status === 404) return true;
  const code = (error.code ?? '').toUpperCase();
  return code === 'NOT_FOUND' || code.endsWith('_NOT_FOUND');
}

/** `planned + 1` for the platform's int64-as-string revisions; undefined when either is not an integer. */
export function nextRevision(revision: string | undefined): string | undefined {
  if (revision === undefined || !/^\d+$/.test(revision)) return undefined;
  return (BigInt(revision) + 1n).toString();
}

function outcomeError(o: BulkItemOutcome): string {
  const e = o.error;
  if (!e) return 'failed without a reason';
  return e.description ? `${e.code}: ${e.description}` : e.code;
}

/** Services by id, fetched with one `{"id":{"$in":[...]}}` query (at most 100 ids). */
async function fetchByIds(port: ServicesPort, ids: string[]): Promise<Map<string, Service>> {
  const out = new Map<string, Service>();
  for await (const page of port.pages({ id: { $in: ids } })) for (const s of page) if (s.id) out.set(s.id, s);
  return out;
}

/**
 * Decides, for items whose update met a revision mismatch, whether our own earlier attempt was applied.
 * Reads the services once (one query for the whole chunk).
 */
export async function recognise(port: ServicesPort, items: WorkItem[], change: ChangeSet): Promise<ItemResult[]> {
  if (items.length === 0) return [];
  const now = await fetchByIds(
    port,
    items.map((i) => i.id),
  );
  return items.map((item): ItemResult => {
    const current = now.get(item.id);
    if (!current) return { id: item.id, outcome: 'conflict', error: 'the service was deleted since the plan' };
    const expected = nextRevision(item.revision);
    if (expected !== undefined && current.revision === expected && isApplied(current, change)) {
      return { id: item.id, outcome: 'updated', revision: current.revision };
    }
    return {
      id: item.id,
      outcome: 'conflict',
      revision: current.revision,
      error: `changed by someone else since the plan (revision ${item.revision} -> ${current.revision}); not overwritten`,
    };
  });
}

/** Runner of `services update`: one bulk update per chunk, revision-checked, then recognition of mismatches. */
export function updateRunner(port: ServicesPort, change: ChangeSet): ChunkRunner {
  const mask = maskString(change);
  return async (chunk) => {
    const outcomes = await port.bulkUpdate(
      chunk.map((item) => ({ service: updateBody(item.id, item.revision ?? '', change), mask })),
    );
    const byIndex = new Map(outcomes.map((o) => [o.originalIndex, o]));
    const results: ItemResult[] = [];
    const mismatched: WorkItem[] = [];
    chunk.forEach((item, index) => {
      const o = byIndex.get(index);
      if (!o) results.push({ id: item.id, outcome: 'failed', error: 'no result for this item in the bulk reply' });
      else if (o.success) results.push({ id: item.id, outcome: 'updated', revision: nextRevision(item.revision) });
      else if (isRevisionMismatch(o.error ?? undefined)) mismatched.push(item);
      else if (isNotFound(o.error ?? undefined)) results.push({ id: item.id, outcome: 'conflict', error: 'the service was deleted since the plan' });
      else results.push({ id: item.id, outcome: 'failed', error: outcomeError(o) });
    });
    results.push(...(await recognise(port, mismatched, change)));
    return results;
  };
}

/** Runner of `services delete`: one bulk delete per chunk; an already-missing service counts as deleted. */
export function deleteRunner(port: ServicesPort): ChunkRunner {
  return async (chunk) => {
    const outcomes = await port.bulkDelete(chunk.map((i) => i.id));
    const byIndex = new Map(outcomes.map((o) => [o.originalIndex, o]));
    return chunk.map((item, index): ItemResult => {
      const o = byIndex.get(index);
      if (!o) return { id: item.id, outcome: 'failed', error: 'no result for this item in the bulk reply' };
      if (o.success || isNotFound(o.error ?? undefined)) return { id: item.id, outcome: 'deleted' };
      return { id: item.id, outcome: 'failed', error: outcomeError(o) };
    });
  };
}

/** Runner of `services clone --count N`: each work item is one clone slot (`clone-1` ...), chunks of one. */
export function cloneRunner(port: ServicesPort, sourceId: string): ChunkRunner {
  return async (chunk) => {
    const results: ItemResult[] = [];
    for (const slot of chunk) {
      try {
        const created = await port.clone(sourceId);
        results.push({ id: slot.id, outcome: 'created', createdId: created.id, revision: created.revision });
      } catch (err) {
        results.push({ id: slot.id, outcome: 'failed', error: errorText(err) });
      }
    }
    return results;
  };
}
