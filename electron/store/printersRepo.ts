/** Printers the worker set up (connection + per-printer settings), as JSON columns. */
import { printerConfig, type PrinterConfig } from '../../shared/contract/printing';
import type { Db } from './database';

interface PrinterRow {
  id: string;
  name: string;
  connection: string;
  settings: string;
}

export function createPrintersRepo(db: Db) {
  const all = db.prepare<[], PrinterRow>(
    'SELECT id, name, connection, settings FROM printers ORDER BY created_at, rowid',
  );
  const one = db.prepare<[string], PrinterRow>('SELECT id, name, connection, settings FROM printers WHERE id = ?');
  const upsert = db.prepare(`INSERT INTO printers (id, name, connection, settings, created_at, updated_at)
    VALUES (@id, @name, @connection, @settings, @now, @now)
    ON CONFLICT(id) DO UPDATE SET name = excluded.name, connection = excluded.connection,
      settings = excluded.settings, updated_at = excluded.updated_at`);
  const del = db.prepare('DELETE FROM printers WHERE id = ?');

  // Rows are parsed through the schema so a settings field added later gets its default.
  const toConfig = (r: PrinterRow): PrinterConfig =>
    printerConfig.parse({
      id: r.id,
      name: r.name,
      connection: JSON.parse(r.connection) as unknown,
      settings: JSON.parse(r.settings) as unknown,
    });

  return {
    list: (): PrinterConfig[] => all.all().map(toConfig),
    get(id: string): PrinterConfig | undefined {
      const r = one.get(id);
      return r ? toConfig(r) : undefined;
    },
    save(p: PrinterConfig, now: Date): void {
      upsert.run({
        id: p.id,
        name: p.name,
        connection: JSON.stringify(p.connection),
        settings: JSON.stringify(p.settings),
        now: now.toISOString(),
      });
    },
    remove: (id: string): boolean => del.run(id).changes > 0,
  };
}

export type PrintersRepo = ReturnType<typeof createPrintersRepo>;
