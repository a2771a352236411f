/** The field messages of an `invalid_params` answer (error texts in general: i18n/errors.ts). */
import type { RpcError } from '../../../../shared/rpcEnvelope';

/** The field messages of an `invalid_params` answer, by the first path element. */
export function fieldErrors(error: RpcError): Record<string, string> {
  if (error.code !== 'invalid_params' || !Array.isArray(error.details)) return {};
  const out: Record<string, string> = {};
  for (const d of error.details as { path?: string[]; message?: string }[]) {
    const field = d.path?.join('.') ?? '';
    if (d.message && !out[field]) out[field] = d.message;
  }
  return out;
}
