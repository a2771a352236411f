/**
 * Camera: the RPC handlers of the desk camera, its photos and the proof-of-packing PDF,
 * composed from the photos repo, the camera service and the parcel's audit trail (times, weights,
 * the print job whose preview is the label as printed). camera/wireCamera.ts wires them for the station.
 */
import type { Db } from '../store/database';
import type { PhotosRepo } from '../store/photosRepo';
import { createAuditTrailRepo } from '../store/auditTrailRepo';
import type { SettingsRepo } from '../store/settingsRepo';
import { toSummary } from '../store/shipmentsRepo';
import type { Handlers } from '../rpc/rpcServer';
import type { WorkflowDeps } from '../workflows/workflowDeps';
import { StationError } from '../base/stationError';
import { renderProofOfPackingPdf, type ProofParcel } from '../documents/proofOfPackingPdf';
import { packageOfLabelRef } from '../store/printJobsRepo';
import { packagePrintsOf } from '../workflows/packagePrints';
import type { JobState, PreviewPage } from '../../shared/contract/printing';
import { createCameraService } from './cameraService';

/** A job whose labels left for the printer and came out (or were handed on): its preview is the label as printed. */
const PRINTED: JobState[] = ['done', 'spooled', 'sent'];

export interface CameraHandlerDeps {
  db: Db;
  deps: WorkflowDeps;
  /** The station's photos repo (retention reads the same one). */
  photos: PhotosRepo;
  dataDir: string;
  settings: SettingsRepo;
  /** The print queue's preview of a job: the label as the printer got it. */
  preview(jobId: number): Promise<PreviewPage[]>;
}

type CameraMethod =
  | 'camera.getSettings'
  | 'camera.setSettings'
  | 'camera.savePhoto'
  | 'camera.photos'
  | 'camera.photo'
  | 'camera.proofPdf';

export function createCameraHandlers(o: CameraHandlerDeps): Pick<Handlers, CameraMethod> {
  const photos = o.photos;
  const trail = createAuditTrailRepo(o.db);
  const activeAccountId = () => o.deps.session()?.accountId ?? null;
  const camera = createCameraService({
    dataDir: o.dataDir,
    settings: o.settings,
    photos,
    clock: o.deps.clock,
    who: () => o.deps.desk.who(),
    activeAccountId,
  });

  /** The newest job of the parcel that printed every label of it (not one package's alone). */
  function wholeParcelJob(accountId: string, deliveryId: number): number | null {
    const ids = o.deps.repos.journal.jobIdsOfShipment(accountId, deliveryId);
    const whole = ids
      .map((id) => o.deps.queue.get(id))
      .filter((j) => PRINTED.includes(j.state) && j.labelRef !== null && packageOfLabelRef(j.labelRef) === null);
    return whole.length ? Math.max(...whole.map((j) => j.id)) : null;
  }

  async function parcel(accountId: string, deliveryId: number): Promise<ProofParcel> {
    const s = o.deps.repos.shipments.get(accountId, deliveryId);
    if (!s) throw new StationError('not_in_cache', `The station does not know shipment ${deliveryId}.`, { deliveryId });
    const steps = trail.ofDelivery(accountId, deliveryId);
    const last = (pred: (k: (typeof steps)[number]) => boolean) => steps.filter(pred).at(-1) ?? null;
    const printed = last(
      (x) => x.step === 'print' && (x.outcome === 'done' || x.outcome === 'spooled' || x.outcome === 'sent'),
    );
    const queued = last((x) => x.step === 'label_queued');
    // Every package's label: the newest job that printed all of them (a reprint of one package's
    // label holds that label alone), else the job the trail names.
    const jobId =
      wholeParcelJob(accountId, deliveryId) ??
      printed?.jobId ??
      last((x) => x.step === 'print' && x.jobId !== null)?.jobId ??
      null;
    // A label whose bytes are gone (the queue's retention) has no preview: the page says so.
    const pages = jobId === null ? [] : await o.preview(jobId).catch(() => []);
    const labelPngs = pages.map((pg) => Buffer.from(pg.png, 'base64'));
    const weights = steps
      .filter((x) => x.step === 'weight_taken' && x.packageNumber !== null)
      .map((x) => ({ packageNumber: x.packageNumber!, kg: x.kg }));
    const weighed = last(
      (x) => x.step === 'weight_corrected' || x.step === 'weight_within_tolerance' || x.step === 'weight_not_sent',
    );
    const rows = camera.photosOf(deliveryId);
    const files = await Promise.all(rows.map((r) => camera.photoBytes(r).catch(() => null)));
    return {
      deliveryId,
      externalId: s.externalId,
      deliveryNumber: s.deliveryNumber,
      carrier: s.agent,
      recipientName: toSummary(s).recipientName,
      weights,
      correction:
        weighed?.step === 'weight_corrected'
          ? 'sent'
          : weighed?.step === 'weight_within_tolerance'
            ? 'within_tolerance'
            : weighed
              ? 'not_sent'
              : null,
      scannedAt: steps.find((x) => x.step === 'scanned')?.at ?? null,
      closedAt: last((x) => x.step === 'closed')?.at ?? s.closed,
      printedAt: printed?.at ?? queued?.at ?? null,
      labelPngs,
      packagePrints: packagePrintsOf(o.deps, accountId, deliveryId, s.packages.length),
      // A photo whose file is gone is left out (the detail says "no longer in the data folder").
      photos: rows.flatMap((r, i) => {
        const jpeg = files[i];
        return jpeg
          ? [
              {
                jpeg,
                width: r.width,
                height: r.height,
                takenAt: r.takenAt,
                kind: r.kind,
                desk: r.desk,
                operatorName: r.operatorName,
              },
            ]
          : [];
      }),
    };
  }

  return {
    ...camera.handlers,
    'camera.proofPdf': async ({ deliveryIds, language }) => {
      const accountId = activeAccountId();
      if (!accountId) throw new StationError('no_account', 'No company is active.');
      const parcels: ProofParcel[] = [];
      for (const id of deliveryIds) parcels.push(await parcel(accountId, id));
      const pdf = await renderProofOfPackingPdf(parcels, { language, created: o.deps.clock.now() });
      const name = deliveryIds.length === 1 ? String(deliveryIds[0]) : `${deliveryIds.length}-parcels`;
      return { pdf: pdf.toString('base64'), fileName: `proof-of-packing-${name}.pdf` };
    },
  };
}
