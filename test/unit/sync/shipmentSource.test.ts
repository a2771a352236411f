import { describe, expect, it } from 'vitest';
import { ServiceError } from '../../../electron/api/index';
import { toSourceError } from '../../../electron/sync/shipmentSource';
import { classifyTrouble } from '../../../electron/workflows/serviceTrouble';

describe('service errors seen by the sync and the scanner lookup', () => {
  it('a 5xx is the service failing: retryable, so a scan waits in the queue instead of failing', () => {
    const e = toSourceError(new ServiceError('http', 'Internal server error', { status: 503 }));
    expect(e.code).toBe('service_unreachable');
    expect(classifyTrouble(e).kind).toBe('unreachable');
  });

  it('a 4xx is an answer: shown as it is, never queued', () => {
    const e = toSourceError(new ServiceError('http', 'Forbidden', { status: 403 }));
    expect(e).toEqual({ code: 'service_http', message: 'Forbidden' });
    expect(classifyTrouble(e).kind).toBe('answered');
  });

  it('no answer and an expired login keep their kinds', () => {
    expect(classifyTrouble(toSourceError(new ServiceError('timeout', 'No answer in 10 s'))).kind).toBe('unreachable');
    expect(classifyTrouble(toSourceError(new ServiceError('login_required', 'Log in again'))).kind).toBe('login');
  });
});
