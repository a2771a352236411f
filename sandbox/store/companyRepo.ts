/** Companies (with their licence limit), their collection places, counters and settings. */
import type { CollectionPlaceRecord } from '../domain/index';
import type { Db } from './database';

export class CompanyRepo {
  constructor(private readonly db: Db) {}

  addCompany(companyId: number, name: string): void {
    this.db.prepare('INSERT INTO companies (company_id, name) VALUES (?, ?)').run(companyId, name);
  }

  companyName(companyId: number): string | null {
    const row = this.db.prepare('SELECT name FROM companies WHERE company_id = ?').get(companyId) as
      { name: string } | undefined;
    return row?.name ?? null;
  }

  /** null = no limit. */
  licenceLimit(companyId: number): number | null {
    const row = this.db.prepare('SELECT licence_limit FROM companies WHERE company_id = ?').get(companyId) as
      { licence_limit: number | null } | undefined;
    return row?.licence_limit ?? null;
  }

  setLicenceLimit(limit: number | null): void {
    this.db.prepare('UPDATE companies SET licence_limit = ?').run(limit);
  }

  putPlace(companyId: number, place: CollectionPlaceRecord): void {
    this.db
      .prepare('INSERT OR REPLACE INTO places (company_id, identificator, record) VALUES (?, ?, ?)')
      .run(companyId, place.identificator, JSON.stringify(place));
  }

  places(companyId: number): CollectionPlaceRecord[] {
    const rows = this.db
      .prepare('SELECT record FROM places WHERE company_id = ? ORDER BY identificator')
      .all(companyId) as { record: string }[];
    return rows.map((r) => JSON.parse(r.record) as CollectionPlaceRecord);
  }

  /** Next value of a named counter, starting after `start`. */
  next(name: string, start = 0): number {
    this.db
      .prepare('INSERT INTO counters (name, value) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET value = value + 1')
      .run(name, start + 1);
    return (this.db.prepare('SELECT value FROM counters WHERE name = ?').get(name) as { value: number }).value;
  }

  meta(key: string): string | null {
    const row = this.db.prepare('SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined;
    return row?.value ?? null;
  }

  setMeta(key: string, value: string): void {
    this.db.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)').run(key, value);
  }
}
