/**
 * What the station cached of one company's service data, as one thing it can forget ("Reset demo
 * data", electron/auth/demoReset.ts). The tables come from the schema itself (every table with an
 * account_id column), so a table a later migration adds is forgotten too without a list to keep up;
 * only what the worker did and what the seed makes again stays (KEPT).
 */
import type { Db } from './sqlite';

/**
 * Per-account tables that stay: the scan log and the journal are what the worker did, not the
 * service's data; collection places are made the same again by the seed and New shipment needs them.
 */
const KEPT = new Set(['scan_log', 'journal_entries', 'collection_places']);

export interface AccountCacheRepo {
  /** The tables `forget` empties for an account, from the schema (child tables go with them). */
  tables(): string[];
  /** Deletes every cached row of the account in one transaction. */
  forget(accountId: string): void;
}

export function createAccountCacheRepo(db: Db): AccountCacheRepo {
  const tables = (): string[] =>
    db
      .prepare<[], { name: string }>(
        // Real and virtual tables (the FTS search index holds account_id too); FTS's shadow tables have no account_id.
        `SELECT m.name FROM sqlite_master m WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%'
           AND EXISTS (SELECT 1 FROM pragma_table_info(m.name) c WHERE c.name = 'account_id') ORDER BY m.name`,
      )
      .all()
      .map((r) => r.name)
      .filter((name) => !KEPT.has(name));
  return {
    tables,
    forget(accountId) {
      db.transaction(() => {
        // Table names come from sqlite_master, not from input.
        for (const table of tables()) db.prepare(`DELETE FROM "${table}" WHERE account_id = ?`).run(accountId);
      })();
    },
  };
}
