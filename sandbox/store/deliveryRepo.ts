/**
 * Shipments and collection protocols per company. Shipments are also kept parsed in memory
 * (write-through), so a search over thousands of them does not parse JSON on every request.
 */
import type { StoredDelivery } from '../domain/index';
import type { Db } from './database';

export interface ProtocolRecord {
  collectionProtocolId: number;
  agent: string;
  collectionPlace: string;
  created: string;
  deliveries: number[];
  /** The protocol PDF, base64 (spec "Collection protocol": `protocol`). */
  protocol: string;
}

export class DeliveryRepo {
  private readonly cache = new Map<number, { companyId: number; delivery: StoredDelivery }>();

  constructor(private readonly db: Db) {
    this.reload();
  }

  reload(): void {
    this.cache.clear();
    const rows = this.db.prepare('SELECT delivery_id, company_id, record FROM deliveries').all() as {
      delivery_id: number;
      company_id: number;
      record: string;
    }[];
    for (const r of rows)
      this.cache.set(r.delivery_id, { companyId: r.company_id, delivery: JSON.parse(r.record) as StoredDelivery });
  }

  get(deliveryId: number): { companyId: number; delivery: StoredDelivery } | null {
    return this.cache.get(deliveryId) ?? null;
  }

  /** The company's shipments by ascending deliveryId. */
  ofCompany(companyId: number): StoredDelivery[] {
    const out: StoredDelivery[] = [];
    for (const entry of this.cache.values()) if (entry.companyId === companyId) out.push(entry.delivery);
    return out.sort((a, b) => a.deliveryId - b.deliveryId);
  }

  countOfCompany(companyId: number): number {
    let n = 0;
    for (const entry of this.cache.values()) if (entry.companyId === companyId) n += 1;
    return n;
  }

  /** Writes all or none (spec "POST": no shipment is inserted if any item fails). */
  saveAll(companyId: number, ds: StoredDelivery[]): void {
    const stmt = this.db.prepare(
      'INSERT OR REPLACE INTO deliveries (delivery_id, company_id, record) VALUES (?, ?, ?)',
    );
    this.db.transaction(() => {
      for (const d of ds) stmt.run(d.deliveryId, companyId, JSON.stringify(d));
    })();
    for (const d of ds) this.cache.set(d.deliveryId, { companyId, delivery: d });
  }

  addProtocol(companyId: number, p: ProtocolRecord): void {
    this.db
      .prepare('INSERT INTO protocols (protocol_id, company_id, record) VALUES (?, ?, ?)')
      .run(p.collectionProtocolId, companyId, JSON.stringify(p));
  }

  protocol(id: number): { companyId: number; protocol: ProtocolRecord } | null {
    const row = this.db.prepare('SELECT company_id, record FROM protocols WHERE protocol_id = ?').get(id) as
      { company_id: number; record: string } | undefined;
    return row ? { companyId: row.company_id, protocol: JSON.parse(row.record) as ProtocolRecord } : null;
  }
}
