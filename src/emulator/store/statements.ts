/** The prepared statements of the store's tables (store.ts), made again whenever the store opens its file. */
import { prepare, type Database } from './sqlite.js';

/** The store's prepared statements on `db` (the layout in store.ts's module comment). */
export function statements(db: Database) {
  return {
    rows: prepare<[string], { site: string; doc: string }>(db, 'SELECT site, doc FROM docs WHERE kind = ? ORDER BY seq'),
    siteRows: prepare<[string, string], { site: string; doc: string }>(db, 'SELECT site, doc FROM docs WHERE kind = ? AND site = ? ORDER BY seq'),
    rowDoc: prepare<[string, string, string], { doc: string }>(db, 'SELECT doc FROM docs WHERE site = ? AND kind = ? AND id = ?'),
    insertRow: prepare<[string, string, string, number, string]>(db, 'INSERT INTO docs (site, kind, id, seq, doc) VALUES (?, ?, ?, ?, ?)'),
    updateRow: prepare<[string, string, string, string]>(db, 'UPDATE docs SET doc = ? WHERE site = ? AND kind = ? AND id = ?'),
    deleteRow: prepare<[string, string, string]>(db, 'DELETE FROM docs WHERE site = ? AND kind = ? AND id = ?'),
    maxSeq: prepare<[], { m: number | null }>(db, 'SELECT MAX(seq) AS m FROM docs'),
    countRows: prepare<[], { site: string; kind: string; n: number }>(db, 'SELECT site, kind, COUNT(*) AS n FROM docs GROUP BY site, kind'),
    countKind: prepare<[string, string], { n: number }>(db, 'SELECT COUNT(*) AS n FROM docs WHERE kind = ? AND site = ?'),
    uniqueOwner: prepare<[string, string, string, string], { id: string }>(db, 
      'SELECT id FROM uniques WHERE site = ? AND kind = ? AND name = ? AND value = ?',
    ),
    claimUnique: prepare<[string, string, string, string, string]>(db, 
      'INSERT OR IGNORE INTO uniques (site, kind, name, value, id) VALUES (?, ?, ?, ?, ?)',
    ),
    releaseUnique: prepare<[string, string, string, string, string]>(db, 
      'DELETE FROM uniques WHERE site = ? AND kind = ? AND name = ? AND value = ? AND id = ?',
    ),
    releaseAll: prepare<[string, string, string]>(db, 'DELETE FROM uniques WHERE site = ? AND kind = ? AND id = ?'),
    appendEvent: prepare<[string, string, string, string, string]>(db, 
      'INSERT INTO events (site, type, entity_id, entity, created_date) VALUES (?, ?, ?, ?, ?)',
    ),
    listEvents: prepare<[number, number], { seq: number; site: string; type: string; entity_id: string; entity: string; created_date: string }>(db, 
      'SELECT seq, site, type, entity_id, entity, created_date FROM events WHERE seq > ? ORDER BY seq LIMIT ?',
    ),
    countEvents: prepare<[], { n: number; last: number | null }>(db, 'SELECT COUNT(*) AS n, MAX(seq) AS last FROM events'),
    sites: prepare<[], { id: string; name: string; created_date: string }>(db, 'SELECT id, name, created_date FROM sites ORDER BY seq'),
    addSite: prepare<[string, string, string]>(db, 
      'INSERT INTO sites (id, name, created_date, seq) VALUES (?, ?, ?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM sites))',
    ),
    removeSite: prepare<[string]>(db, 'DELETE FROM sites WHERE id = ?'),
    getMeta: prepare<[string], { value: string }>(db, 'SELECT value FROM meta WHERE key = ?'),
    setMeta: prepare<[string, string]>(db, 'INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)'),
  };
}
