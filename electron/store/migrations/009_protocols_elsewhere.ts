import type { Migration } from './index';

/**
 * 9: shipments a collection protocol made elsewhere covers. The service does not say which
 * protocol a shipment is on; when it refuses a protocol because none of a pair's shipments
 * qualify (spec "POST /api/v2/collection-protocols": 422 with errors[]), the ones this station
 * listed for that pair are on another desk's protocol, and leave the end-of-day list.
 */
export const m009ProtocolsElsewhere: Migration = (db) => {
  db.exec(`
    CREATE TABLE protocol_elsewhere_shipments (
      account_id TEXT NOT NULL,
      delivery_id INTEGER NOT NULL,
      noted_at TEXT NOT NULL,
      PRIMARY KEY (account_id, delivery_id)
    ) STRICT;
  `);
};
