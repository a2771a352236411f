/**
 * The numbered schema migrations, oldest first: migration N brings user_version N-1 to N.
 * One file per migration (NNN_name.ts). Never edit one that has shipped; add the next.
 * Every migration has a test in test/unit/store/migrations.test.ts.
 */
import type Database from 'better-sqlite3';
import { m001Settings } from './001_settings';

export type Migration = (db: Database.Database) => void;

export const migrations: Migration[] = [m001Settings];
