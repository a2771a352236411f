/**
 * A real sandbox on 127.0.0.1 and a station client logged in to it through the spec's manual
 * mode (a refresh token obtained by hand, POST /_sandbox/tokens), with a real token manager
 * refreshing over HTTP. Secrets sit in the in-process SecretStore variant here; the keychain
 * variant has its own tests (test/integration/auth/keychain.test.ts).
 */
import { startSandbox, type Sandbox } from '../../../sandbox/index';
import { createServiceClient, type DeliveryInput, type ServiceClient } from '../../../electron/api/index';
import { createMemorySecretStore, secretNames, type SecretStore } from '../../../electron/auth/keychain';
import { createTokenManager, type TokenManager } from '../../../electron/auth/tokenManager';
import { systemClock, type Clock } from '../../../electron/base/clock';

export { captureLog, type CapturedLog } from './captureLog';
import { captureLog, type CapturedLog } from './captureLog';

export async function adminPost<T = unknown>(sb: { url: string }, path: string, body: unknown): Promise<T> {
  const res = await fetch(`${sb.url}/_sandbox/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`admin ${path}: HTTP ${res.status} ${text}`);
  return JSON.parse(text) as T;
}

export interface Session {
  sb: Sandbox;
  client: ServiceClient;
  tokens: TokenManager;
  secrets: SecretStore;
  log: CapturedLog;
  accountId: string;
  language: { current: 'en' | 'cs' };
  refreshToken: string;
}

export async function openSession(
  opts: {
    sandbox?: Sandbox;
    clock?: Clock;
    baseUrl?: string;
    seed?: 'demo' | 'none';
    timeoutMs?: number;
    verifyDelayMs?: number;
  } = {},
): Promise<Session> {
  const sb = opts.sandbox ?? (await startSandbox({ seed: opts.seed ?? 'demo' }));
  const log = captureLog();
  const secrets = createMemorySecretStore();
  const accountId = 'test-account';
  const manual = await adminPost<{ refresh_token: string }>(sb, 'tokens', {
    clientId: sb.demo.clientId,
    username: sb.demo.username,
    scope: sb.demo.scope,
  });
  await secrets.set(secretNames.clientSecret(accountId), sb.demo.clientSecret);
  await secrets.set(secretNames.refreshToken(accountId), manual.refresh_token);
  const baseUrl = opts.baseUrl ?? sb.url;
  const tokens = createTokenManager({
    accountId,
    baseUrl,
    clientId: sb.demo.clientId,
    redirectUri: sb.demo.redirectUri,
    scopes: sb.demo.scope.split(' '),
    secrets,
    clock: opts.clock ?? systemClock,
    log,
    initialState: { state: 'logged-in' },
  });
  const language = { current: 'en' as 'en' | 'cs' };
  const client = createServiceClient({
    baseUrl,
    tokens,
    language: () => language.current,
    log,
    timeoutMs: opts.timeoutMs,
    retryBackoffMs: 20,
    verifyDelayMs: opts.verifyDelayMs ?? 50,
  });
  return { sb, client, tokens, secrets, log, accountId, language, refreshToken: manual.refresh_token };
}

let counter = 0;
/** A shipment from the demo company's Prague warehouse to an address, by National Post (spec "Party type rules" 4: ordinary collection shipment). */
export function shipment(over: Partial<DeliveryInput> = {}): DeliveryInput {
  counter++;
  return {
    sender: { type: 'collectionPlace', collectionPlace: 'WH-PRAHA' },
    recipient: {
      type: 'address',
      firstname: 'Jana',
      surname: 'Nováková',
      email: 'jana@example.com',
      phone: '+420 601 123 456',
      address: { street: 'Dlouhá 12', city: 'Praha', postalCode: '11000', state: 'CZ' },
    },
    value: '1250.50',
    valueCurrency: 'CZK',
    packages: [{ weight: '1.25' }],
    agent: 'NP',
    deliveryType: 'NP-DOOR',
    externalId: `T-${process.pid}-${Date.now()}-${counter}`,
    ...over,
  };
}
