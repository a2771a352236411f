/** The sandbox's state: one database, three repositories. */
import { CompanyRepo } from './companyRepo';
import { DATA_TABLES, openDatabase, type Db } from './database';
import { DeliveryRepo } from './deliveryRepo';
import { OAuthRepo } from './oauthRepo';

export type { ClientRecord, CodeRecord, TokenRecord } from './oauthRepo';
export type { ProtocolRecord } from './deliveryRepo';

export class SandboxStore {
  readonly oauth: OAuthRepo;
  readonly companies: CompanyRepo;
  readonly deliveries: DeliveryRepo;

  private constructor(private readonly db: Db) {
    this.oauth = new OAuthRepo(db);
    this.companies = new CompanyRepo(db);
    this.deliveries = new DeliveryRepo(db);
  }

  static open(dataFile?: string, nativeBinding?: string): SandboxStore {
    return new SandboxStore(openDatabase(dataFile, nativeBinding));
  }

  /** True when nothing was ever stored (a fresh file or memory): the seed runs only then. */
  isEmpty(): boolean {
    return (this.db.prepare('SELECT COUNT(*) AS n FROM companies').get() as { n: number }).n === 0;
  }

  /** deliveryIds are one numbering for all companies; the first is 1001. */
  nextDeliveryId(): number {
    return this.companies.next('deliveryId', 1000);
  }

  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn)();
  }

  /** Deletes everything (POST /_sandbox/reset). */
  wipe(): void {
    this.db.transaction(() => {
      for (const table of DATA_TABLES) this.db.prepare(`DELETE FROM ${table}`).run();
    })();
    this.deliveries.reload();
  }

  close(): void {
    this.db.close();
  }
}
