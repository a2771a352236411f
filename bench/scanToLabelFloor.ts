/**
 * The floor of scan-to-label: the least a program must do to close one shipment and print its
 * labels, with no UI, cache, queue or retries. Close it (spec "PATCH /api/v3/deliveries"), fetch
 * its ZPL (spec "GET /api/v3/deliveries/zpl"), write the labels to the printer over one TCP
 * connection (raw port 9100 style).
 */
import net from 'node:net';

async function call(baseUrl: string, token: string, method: string, path: string, body?: unknown): Promise<unknown> {
  const res = await fetch(baseUrl + path, {
    method,
    headers: {
      accept: 'application/json',
      authorization: `Bearer ${token}`,
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json: unknown = await res.json();
  if (!res.ok) throw new Error(`${method} ${path}: HTTP ${res.status} ${JSON.stringify(json).slice(0, 300)}`);
  return json;
}

/** Closes one shipment and returns its ZPL labels, one per package. */
export async function floorCloseAndFetchZpl(baseUrl: string, token: string, deliveryId: number): Promise<string[]> {
  await call(baseUrl, token, 'PATCH', '/api/v3/deliveries', { deliveries: [{ deliveryId, closed: true }] });
  const zpl = (await call(baseUrl, token, 'GET', `/api/v3/deliveries/zpl?deliveryId=${deliveryId}`)) as {
    data: { deliveryId: number; zplCodes: string[] }[];
  };
  const labels = zpl.data[0]?.zplCodes;
  if (!labels?.length) throw new Error(`no ZPL for shipment ${deliveryId}`);
  return labels;
}

/** Writes the labels to a raw TCP printer and resolves when the connection has closed. */
export function sendZplOverTcp(port: number, labels: string[], host = '127.0.0.1'): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host, port }, () => socket.end(Buffer.from(labels.join(''), 'latin1')));
    socket.on('error', reject);
    socket.on('close', () => resolve());
    socket.resume();
  });
}
