/**
 * Station errors as text a worker can act on, in the UI's language where the code is known (the
 * main side's messages are English; a code we know gets its translated text instead).
 */
import type { RpcError } from '../../../../shared/rpcEnvelope';
import type { MessageKey } from '../../i18n/en';
import type { T } from '../../i18n';

const known: Record<string, MessageKey> = {
  unavailable: 'settings.err.unavailable',
  'login.invalid-token': 'accounts.err.invalidToken',
  'login.cancelled': 'accounts.err.cancelled',
  printer_builtin: 'printers.builtInWhy',
  printer_routed: 'printers.usedByRouting',
};

export function errorText(t: T, error: RpcError): string {
  const key = known[error.code];
  return key ? t(key) : error.message;
}

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
