/**
 * Puts shipments into a real sandbox over HTTP (the way an e-shop would: POST /api/v3/deliveries,
 * several per request), for sync and lookup tests and benchmarks.
 */
import type { Sandbox } from '../../sandbox/index';
import { createServiceClient, type ServiceClient } from '../../electron/api/index';
import { memoryLogger } from './memoryLogger';

export async function sandboxToken(sb: Sandbox, username = sb.demo.username): Promise<string> {
  const res = await fetch(`${sb.url}/_sandbox/tokens`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ clientId: sb.demo.clientId, username, scope: sb.demo.scope }),
  });
  if (!res.ok) throw new Error(`sandbox token: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

/** The station's own service client at `baseUrl` (the sandbox, or a proxy before it) with a fixed token: no retries of GETs. */
export function tokenClient(baseUrl: string, token: string): ServiceClient {
  return createServiceClient({
    baseUrl,
    tokens: { accessToken: async () => token, renewAfterRejection: async () => token },
    language: () => 'en',
    log: memoryLogger(),
    getRetries: 0,
    timeoutMs: 10_000,
  });
}

export function orderItem(externalId: string, i = 0): Record<string, unknown> {
  return {
    value: `${100 + (i % 900)}.50`,
    valueCurrency: 'CZK',
    agent: 'NP',
    deliveryType: 'NP-DOOR',
    externalId,
    sender: { type: 'collectionPlace', collectionPlace: 'WH-PRAHA' },
    recipient: {
      type: 'address',
      firstname: 'Jana',
      surname: `Nováková ${i}`,
      email: 'jana@example.cz',
      phone: '+420 601 234 567',
      address: { street: 'Dlouhá 12', city: 'Praha 1', postalCode: '11000', state: 'CZ' },
    },
    packages: [{ weight: '2,3' }],
  };
}

async function call(sb: Sandbox, token: string, method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(sb.url + path, {
    method,
    headers: {
      accept: 'application/json',
      authorization: `Bearer ${token}`,
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = (await res.json()) as any;
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json).slice(0, 500)}`);
  return json;
}

/** Inserts `count` shipments with externalIds `${prefix}${n}`; returns their deliveryIds in order. */
export async function insertShipments(
  sb: Sandbox,
  token: string,
  count: number,
  prefix = 'ORD-',
  batch = 250,
): Promise<number[]> {
  const ids: number[] = [];
  for (let start = 0; start < count; start += batch) {
    const items = Array.from({ length: Math.min(batch, count - start) }, (_, k) =>
      orderItem(`${prefix}${start + k + 1}`, start + k),
    );
    const body = await call(sb, token, 'POST', '/api/v3/deliveries', { deliveries: items });
    ids.push(...(body.data as { deliveryId: number }[]).map((d) => d.deliveryId));
  }
  return ids;
}

/** Closes shipments (one carrier, one place: the ones insertShipments makes); returns the closed records. */
export async function closeShipments(sb: Sandbox, token: string, deliveryIds: number[]): Promise<any[]> {
  const body = await call(sb, token, 'PATCH', '/api/v3/deliveries', {
    deliveries: deliveryIds.map((deliveryId) => ({ deliveryId, closed: true })),
  });
  return body.data.deliveries as any[];
}

export async function cancelShipments(sb: Sandbox, token: string, deliveryIds: number[]): Promise<void> {
  await call(sb, token, 'DELETE', '/api/v3/deliveries', {
    deliveries: deliveryIds.map((deliveryId) => ({ deliveryId })),
  });
}

export async function sandboxFault(sb: Sandbox, fault: Record<string, unknown> | null): Promise<void> {
  const res = await fetch(`${sb.url}/_sandbox/faults`, {
    method: fault ? 'POST' : 'DELETE',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(fault ?? {}),
  });
  if (!res.ok) throw new Error(`sandbox fault: ${res.status} ${await res.text()}`);
}
