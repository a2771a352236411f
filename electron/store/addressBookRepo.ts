/**
 * The address book read from the shipment cache: the parties of shipments this company sent
 * before (recipients, and the customers who sent returns), newest first. No table of its own: the
 * cache already holds every party, and a separate copy would drift from it.
 */
import type { ShipmentParty } from '../../shared/contract/shipments';
import type { Db } from './database';

export interface UsedParty {
  deliveryId: number;
  created: string | null;
  role: 'recipient' | 'sender';
  party: ShipmentParty;
}

interface Row {
  delivery_id: number;
  created: string | null;
  data: string;
}

export function createAddressBookRepo(db: Db) {
  const recent = db.prepare<[string, number], Row>(
    'SELECT delivery_id, created, data FROM shipments WHERE account_id = ? ORDER BY delivery_id DESC LIMIT ?',
  );
  return {
    /**
     * Senders and recipients of the newest `scan` shipments, newest first. The text filter runs
     * over the parties (the caller's), not over search_text: that one holds only the recipient,
     * and the customer of a return is its sender.
     */
    usedParties(accountId: string, scan: number): UsedParty[] {
      const out: UsedParty[] = [];
      for (const r of recent.all(accountId, scan)) {
        const data = JSON.parse(r.data) as { recipient?: ShipmentParty; sender?: ShipmentParty };
        if (data.recipient)
          out.push({ deliveryId: r.delivery_id, created: r.created, role: 'recipient', party: data.recipient });
        if (data.sender)
          out.push({ deliveryId: r.delivery_id, created: r.created, role: 'sender', party: data.sender });
      }
      return out;
    },
  };
}

export type AddressBookRepo = ReturnType<typeof createAddressBookRepo>;
