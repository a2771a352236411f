/**
 * Injected faults per path (test control POST /_sandbox/faults): added latency, a 5xx answer,
 * a connection reset, a hang until the client gives up, or a carrier that rejects closing.
 * The station's reliability tests drive these; they are in memory only.
 */
import type http from 'node:http';
import { normalisePath } from '../http/router';

export interface FaultSpec {
  path: string;
  method?: string;
  latencyMs?: number;
  status?: number;
  reset?: boolean;
  hang?: boolean;
  carrierReject?: boolean;
  /** How many matching requests the fault applies to; absent = until cleared. */
  count?: number;
}

export type FaultAction =
  | { kind: 'none' }
  | { kind: 'latency'; ms: number; then: FaultAction }
  | { kind: 'status'; status: number }
  | { kind: 'reset' }
  | { kind: 'hang' };

export class FaultTable {
  private faults: Array<FaultSpec & { remaining: number }> = [];
  private readonly hung = new Set<http.ServerResponse>();

  add(spec: FaultSpec): void {
    this.faults.push({
      ...spec,
      path: normalisePath(spec.path),
      method: spec.method?.toUpperCase(),
      remaining: spec.count ?? Infinity,
    });
  }

  clear(): void {
    this.faults = [];
    for (const res of this.hung) res.destroy();
    this.hung.clear();
  }

  private take(method: string, path: string, pred: (f: FaultSpec) => boolean): FaultSpec | null {
    const p = normalisePath(path);
    const f = this.faults.find((x) => x.remaining > 0 && x.path === p && (!x.method || x.method === method) && pred(x));
    if (!f) return null;
    f.remaining -= 1;
    return f;
  }

  /** The transport-level fault for a request (latency, status, reset, hang), consumed once. */
  actionFor(
    method: string,
    path: string,
  ): { latencyMs: number; status: number | null; reset: boolean; hang: boolean } | null {
    const f = this.take(method, path, (x) => !!(x.latencyMs || x.status || x.reset || x.hang));
    return f ? { latencyMs: f.latencyMs ?? 0, status: f.status ?? null, reset: !!f.reset, hang: !!f.hang } : null;
  }

  /** Whether the carrier should reject this close (PATCH /api/v3/deliveries), consumed once. */
  carrierRejects(): boolean {
    return this.take('PATCH', '/api/v3/deliveries', (x) => !!x.carrierReject) !== null;
  }

  /** A hung response is kept until the client disconnects or the faults are cleared. */
  hold(res: http.ServerResponse): void {
    this.hung.add(res);
    res.on('close', () => this.hung.delete(res));
  }
}
