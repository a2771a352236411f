import type { Migration } from './index';

/**
 * 25: one package's label. A reprint of one package of a multi-package parcel (a lost label of
 * package 2/3) names that package (1-based, in the shipment's order, which is the order of the
 * service's ZPL labels: spec "ZPL item", one label per package); null: every label of the parcel.
 * A package's first print and each reprint's time are read from the print jobs it names.
 */
export const m025PackageReprints: Migration = (db) => {
  db.exec(`
    ALTER TABLE desk_actions ADD COLUMN package_number INTEGER CHECK (package_number IS NULL OR package_number >= 1);
  `);
};
