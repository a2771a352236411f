/**
 * The numbered schema migrations, oldest first: migration N brings user_version N-1 to N.
 * One file per migration (NNN_name.ts). Never edit one that has shipped; add the next.
 * Every migration has a test in test/unit/store/migrations.test.ts.
 */
import type Database from 'better-sqlite3';
import { m001Settings } from './001_settings';
import { mPrintQueue } from './002_print_queue';
import { m003Shipments } from './003_shipments';
import { m004CollectionPlaces } from './004_collection_places';
import { m005Labels } from './005_labels';
import { m006ScanLog } from './006_scan_log';
import { m007Accounts } from './007_accounts';
import { m008EndOfDay } from './008_end_of_day';
import { m009ProtocolsElsewhere } from './009_protocols_elsewhere';
import { m010Journal } from './010_journal';
import { m011JobUnconfirmed } from './011_job_unconfirmed';
import { m012BatchItems } from './012_batch_items';
import { m013WeightsAndChecks } from './013_weights_and_checks';
import { m014JobSpooled } from './014_job_spooled';
import { m015JobLabelCounter } from './015_job_label_counter';
import { m016Operators } from './016_operators';
import { m017Retention } from './017_retention';
import { m018Photos } from './018_photos';
import { m019ShipmentsRetention } from './019_shipments_retention';
import { m020JournalCarrier } from './020_journal_carrier';
import { m021PrintJobBytes } from './021_print_job_bytes';
import { m022ShipmentCounts } from './022_shipment_counts';
import { m023PinTries } from './023_pin_tries';
import { m024ProblemShelf } from './024_problem_shelf';
import { m025PackageReprints } from './025_package_reprints';
import { m026PickupOrderShipments } from './026_pickup_order_shipments';
import { m027PackedLabelBytes } from './027_packed_label_bytes';
import { m028JobLabelLinks } from './028_job_label_links';
import { m029FoldedJobEvents } from './029_folded_job_events';
import { m030FoldedJournalSteps } from './030_folded_journal_steps';
import { m031SlimShipmentRows } from './031_slim_shipment_rows';
import { m032HistoryIndexesByShipment } from './032_history_indexes_by_shipment';
import { m033ScanPageRef } from './033_scan_page_ref';

/**
 * A migration; `rebuildsTables` marks one that drops and makes again a table other tables refer to
 * (SQLite's "twelve steps"): foreign keys are off around its transaction, as they cannot be switched
 * inside one, and `foreign_key_check` must find nothing before it commits.
 */
export type Migration = ((db: Database.Database) => void) & { rebuildsTables?: boolean };

export const migrations: Migration[] = [
  m001Settings,
  mPrintQueue,
  m003Shipments,
  m004CollectionPlaces,
  m005Labels,
  m006ScanLog,
  m007Accounts,
  m008EndOfDay,
  m009ProtocolsElsewhere,
  m010Journal,
  m011JobUnconfirmed,
  m012BatchItems,
  m013WeightsAndChecks,
  m014JobSpooled,
  m015JobLabelCounter,
  m016Operators,
  m017Retention,
  m018Photos,
  m019ShipmentsRetention,
  m020JournalCarrier,
  m021PrintJobBytes,
  m022ShipmentCounts,
  m023PinTries,
  m024ProblemShelf,
  m025PackageReprints,
  m026PickupOrderShipments,
  m027PackedLabelBytes,
  m028JobLabelLinks,
  m029FoldedJobEvents,
  m030FoldedJournalSteps,
  m031SlimShipmentRows,
  m032HistoryIndexesByShipment,
  m033ScanPageRef,
];
