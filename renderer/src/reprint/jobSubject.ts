/** The reprint question's subject for a print job, read from the core (its parcels, by what the worker knows). */
import type { Translate } from '../i18n/errors';
import { rpc } from '../rpc/transport';
import { reprintSubject } from './reprintSubject';

/**
 * A print job's parcels (Ctrl+P's last label no recent scan printed, a job in the print queue): its
 * shipments by their order numbers and recipients as the core keeps them; the job's number only
 * when it holds no parcel. `packages`: the packages of its one parcel when the job printed every
 * label of it (the question then offers each label alone), else 1.
 */
export async function jobQuestion(t: Translate, jobId: number): Promise<{ subject: string; packages: number }> {
  const job = await rpc.request('printing.queue.follow', { ids: [jobId], limit: 1 });
  const view = job.ok ? job.value.jobs[0] : undefined;
  const ids = view?.deliveryIds ?? [];
  const shipments = await Promise.all(
    ids.map(async (deliveryId) => {
      const s = await rpc.request('shipments.get', { deliveryId });
      return { deliveryId, v: s.ok ? s.value : null };
    }),
  );
  const parcels = shipments.map(({ deliveryId, v }) => ({
    code: v?.externalId ?? v?.deliveryNumber ?? String(deliveryId),
    recipient: v
      ? v.recipient.name || [v.recipient.firstname, v.recipient.surname].filter(Boolean).join(' ') || null
      : null,
  }));
  const wholeParcel = view?.document.kind === 'labels' && !view.document.package && shipments.length === 1;
  return {
    subject: parcels.length ? reprintSubject(t, parcels) : t('reprint.why.subject.job', { id: jobId }),
    packages: wholeParcel ? (shipments[0]!.v?.packages.length ?? 1) : 1,
  };
}
