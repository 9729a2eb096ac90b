/**
 * Opening a store written by an earlier sitectl (schema 1: `services`, `slugs`, `entities` and an `events`
 * table without sites). Its data moves into the generic layout under the account's default site, event types
 * get their dotted names (`service_created` -> `service.created`), and the old tables are dropped, all in one
 * transaction, so an emulator's data survives the upgrade.
 */
import { prepare, transaction, type Database } from './sqlite.js';

function hasTable(db: Database, name: string): boolean {
  return prepare<[string], { n: number }>(db, "SELECT COUNT(*) AS n FROM sqlite_master WHERE type = 'table' AND name = ?").get(name)!.n > 0;
}

function columns(db: Database, table: string): string[] {
  return prepare<[], { name: string }>(db, `PRAGMA table_info(${table})`).all().map((c) => c.name);
}

/**
 * Creates the current schema, moving a schema-1 store's rows into it first when there is one.
 * @param schema the current schema's SQL (CREATE ... IF NOT EXISTS statements)
 * @param defaultSite the site that receives a legacy store's data
 */
export function openSchema(db: Database, schema: string, defaultSite: { id: string; name: string } | undefined): void {
  const legacy = hasTable(db, 'services') || (hasTable(db, 'events') && !columns(db, 'events').includes('site'));
  if (!legacy) {
    db.exec(schema);
    return;
  }
  const site = defaultSite?.id ?? 'default-site';
  transaction(db, () => {
    if (hasTable(db, 'events')) db.exec('ALTER TABLE events RENAME TO legacy_events');
    db.exec(schema);
    let seq = 1;
    const insert = db.prepare('INSERT OR REPLACE INTO docs (site, kind, id, seq, doc) VALUES (?, ?, ?, ?, ?)');
    if (hasTable(db, 'entities')) {
      for (const r of prepare<[], { kind: string; id: string; doc: string }>(db, 'SELECT kind, id, doc FROM entities ORDER BY kind, seq').all()) {
        insert.run(site, r.kind, r.id, seq++, r.doc);
      }
      db.exec('DROP TABLE entities');
    }
    if (hasTable(db, 'services')) {
      for (const r of prepare<[], { id: string; doc: string }>(db, 'SELECT id, doc FROM services ORDER BY seq').all()) {
        insert.run(site, 'services', r.id, seq++, r.doc);
      }
      db.exec('DROP TABLE services');
    }
    if (hasTable(db, 'slugs')) {
      db.prepare("INSERT OR REPLACE INTO uniques (site, kind, name, value, id) SELECT ?, 'services', 'slug', name, service_id FROM slugs").run(site);
      db.exec('DROP TABLE slugs');
    }
    if (hasTable(db, 'legacy_events')) {
      db.prepare(
        `INSERT INTO events (site, type, entity_id, entity, created_date)
         SELECT ?, REPLACE(type, '_', '.'), entity_id, entity, created_date FROM legacy_events ORDER BY seq`,
      ).run(site);
      db.exec('DROP TABLE legacy_events');
    }
    if (defaultSite && !db.prepare('SELECT 1 FROM sites WHERE id = ?').get(site)) {
      db.prepare("INSERT INTO sites (id, name, created_date, seq) VALUES (?, ?, strftime('%Y-%m-%dT%H:%M:%fZ'), 1)").run(site, defaultSite.name);
    }
  });
}
