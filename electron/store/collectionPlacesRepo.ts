/** The company's collection places (spec "Collection place" record), per account. */
import type { Db } from './database';

export interface CollectionPlace {
  identificator: string;
  name: string | null;
  email: string | null;
  phone: string | null;
  contactPerson: string | null;
  state: string | null;
  city: string | null;
  street: string | null;
  postalCode: string | null;
}

export interface CachedCollectionPlace extends CollectionPlace {
  /** False once the service stopped listing it as active. */
  active: boolean;
  syncedAt: string;
}

interface PlaceRow {
  identificator: string;
  name: string | null;
  email: string | null;
  phone: string | null;
  contact_person: string | null;
  state: string | null;
  city: string | null;
  street: string | null;
  postal_code: string | null;
  active: number;
  synced_at: string;
}

function fromRow(r: PlaceRow): CachedCollectionPlace {
  return {
    identificator: r.identificator,
    name: r.name,
    email: r.email,
    phone: r.phone,
    contactPerson: r.contact_person,
    state: r.state,
    city: r.city,
    street: r.street,
    postalCode: r.postal_code,
    active: r.active === 1,
    syncedAt: r.synced_at,
  };
}

export function createCollectionPlacesRepo(db: Db) {
  const deactivate = db.prepare('UPDATE collection_places SET active = 0 WHERE account_id = ?');
  const upsert = db.prepare(
    `INSERT INTO collection_places (account_id, identificator, name, email, phone, contact_person, state, city, street, postal_code, active, synced_at)
     VALUES (@accountId, @identificator, @name, @email, @phone, @contactPerson, @state, @city, @street, @postalCode, 1, @syncedAt)
     ON CONFLICT (account_id, identificator) DO UPDATE SET name = excluded.name, email = excluded.email, phone = excluded.phone,
       contact_person = excluded.contact_person, state = excluded.state, city = excluded.city, street = excluded.street,
       postal_code = excluded.postal_code, active = 1, synced_at = excluded.synced_at`,
  );
  const selectAll = db.prepare<[string], PlaceRow>(
    'SELECT * FROM collection_places WHERE account_id = ? ORDER BY active DESC, name, identificator',
  );
  const selectOne = db.prepare<[string, string], PlaceRow>(
    'SELECT * FROM collection_places WHERE account_id = ? AND identificator = ?',
  );

  return {
    /** Replaces the active list with what the service returned; places it no longer lists stay, inactive. */
    replaceActive: db.transaction((accountId: string, places: CollectionPlace[], now: Date): void => {
      deactivate.run(accountId);
      for (const p of places) upsert.run({ accountId, ...p, syncedAt: now.toISOString() });
    }),
    list: (accountId: string): CachedCollectionPlace[] => selectAll.all(accountId).map(fromRow),
    get(accountId: string, identificator: string): CachedCollectionPlace | null {
      const row = selectOne.get(accountId, identificator);
      return row ? fromRow(row) : null;
    },
  };
}

export type CollectionPlacesRepo = ReturnType<typeof createCollectionPlacesRepo>;
