/** The reprint question's subject for a print job, read from the core (its parcels, by what the worker knows). */
import type { Translate } from '../i18n/errors';
import { rpc } from '../rpc/transport';
import { reprintSubject } from './reprintSubject';

/**
 * A print job's parcels (Ctrl+P's last label no recent scan printed, a job in the print queue): its
 * shipments by their order numbers and recipients as the core keeps them; the job's number only
 * when it holds no parcel.
 */
export async function jobSubject(t: Translate, jobId: number): Promise<string> {
  const job = await rpc.request('printing.queue.follow', { ids: [jobId], limit: 1 });
  const ids = job.ok ? (job.value.jobs[0]?.deliveryIds ?? []) : [];
  const parcels = await Promise.all(
    ids.map(async (deliveryId) => {
      const s = await rpc.request('shipments.get', { deliveryId });
      const v = s.ok ? s.value : null;
      return {
        code: v?.externalId ?? v?.deliveryNumber ?? String(deliveryId),
        recipient: v
          ? v.recipient.name || [v.recipient.firstname, v.recipient.surname].filter(Boolean).join(' ') || null
          : null,
      };
    }),
  );
  return parcels.length ? reprintSubject(t, parcels) : t('reprint.why.subject.job', { id: jobId });
}
