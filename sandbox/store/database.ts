/**
 * The sandbox's storage: one better-sqlite3 database, a file with --data (state survives a
 * restart) or ':memory:'. One implementation for both, so the in-memory sandbox the tests use is
 * the same code as the persistent one. Secrets (client secrets, passwords, codes, tokens) are
 * stored only as hashes: a copied data file grants nothing.
 */
import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';

export type Db = Database.Database;

const SCHEMA_VERSION = 1;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS companies (company_id INTEGER PRIMARY KEY, name TEXT NOT NULL, licence_limit INTEGER);
CREATE TABLE IF NOT EXISTS users (
  username TEXT PRIMARY KEY, password_hash TEXT NOT NULL,
  company_id INTEGER NOT NULL REFERENCES companies(company_id));
CREATE TABLE IF NOT EXISTS clients (
  client_id TEXT PRIMARY KEY, secret_hash TEXT NOT NULL, company_name TEXT NOT NULL,
  logo_url TEXT, web_url TEXT, redirect_uri TEXT NOT NULL, created_at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS auth_codes (
  code_hash TEXT PRIMARY KEY, client_id TEXT NOT NULL, username TEXT NOT NULL, scope TEXT NOT NULL,
  redirect_uri TEXT, code_challenge TEXT, expires_at INTEGER NOT NULL, used_at INTEGER);
CREATE TABLE IF NOT EXISTS tokens (
  token_hash TEXT PRIMARY KEY, kind TEXT NOT NULL CHECK (kind IN ('access', 'refresh')),
  client_id TEXT NOT NULL, username TEXT NOT NULL, scope TEXT NOT NULL, expires_at INTEGER, code_hash TEXT);
CREATE INDEX IF NOT EXISTS tokens_by_grant ON tokens (client_id, username);
CREATE TABLE IF NOT EXISTS places (
  company_id INTEGER NOT NULL, identificator TEXT NOT NULL, record TEXT NOT NULL,
  PRIMARY KEY (company_id, identificator));
CREATE TABLE IF NOT EXISTS deliveries (delivery_id INTEGER PRIMARY KEY, company_id INTEGER NOT NULL, record TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS protocols (protocol_id INTEGER PRIMARY KEY, company_id INTEGER NOT NULL, record TEXT NOT NULL);
`;

/** Every table with data, in an order that respects references (for reset). */
export const DATA_TABLES = [
  'tokens',
  'auth_codes',
  'protocols',
  'deliveries',
  'places',
  'clients',
  'users',
  'companies',
  'counters',
  'meta',
];

/**
 * Every sandbox database opens here. `nativeBinding` names the better-sqlite3 binary to load
 * instead of the one in node_modules: the station passes its Electron build (the Node build
 * cannot load in Electron's process, nor the Electron build in Node's).
 */
export function openSqlite(file: string, nativeBinding?: string): Db {
  if (!nativeBinding) return new Database(file);
  if (!existsSync(nativeBinding)) {
    throw new Error(
      `The SQLite driver binding ${nativeBinding} does not exist (sandbox option sqliteBinding); build it or leave the option out to use the one in node_modules.`,
    );
  }
  try {
    return new Database(file, { nativeBinding });
  } catch (err) {
    throw new Error(`The SQLite driver binding ${nativeBinding} could not be loaded (${(err as Error).message}).`, {
      cause: err,
    });
  }
}

export function openDatabase(dataFile?: string, nativeBinding?: string): Db {
  const db = openSqlite(dataFile ?? ':memory:', nativeBinding);
  if (dataFile) db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version > SCHEMA_VERSION) {
    db.close();
    throw new Error(`The data file ${dataFile} was written by a newer sandbox (schema ${version}); use a new file.`);
  }
  db.exec(SCHEMA);
  db.pragma(`user_version = ${SCHEMA_VERSION}`);
  return db;
}
