/**
 * The shipment's detail (camera): the parcel's proof-of-packing photos with their time, desk and
 * operator, and "Proof of packing", the PDF for a claim. A button of its own for several parcels
 * sits in the Shipments screen's action bar (ProofButton).
 */
import { useEffect, useState } from 'react';
import { MAX_PROOF_PARCELS, type PhotoInfo } from '../../../shared/contract/camera';
import { useLanguage, useT } from '../i18n';
import { errorText } from '../i18n/errors';
import { rpc } from '../rpc/transport';
import { formatDateTime } from '../screens/shipments/format';
import { saveBase64File } from '../format/saveTextFile';

/** Makes and downloads the proof-of-packing PDF of the parcels; answers an error text, or null. */
function useProof(): { busy: boolean; error: string | null; make(ids: number[]): Promise<void> } {
  const t = useT();
  const { language } = useLanguage();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return {
    busy,
    error,
    async make(ids) {
      setBusy(true);
      setError(null);
      try {
        const r = await rpc.request('camera.proofPdf', { deliveryIds: ids, language });
        if (r.ok) saveBase64File(r.value.fileName, r.value.pdf, 'application/pdf');
        else setError(errorText(t, r.error));
      } finally {
        setBusy(false);
      }
    },
  };
}

function Photo(p: { photo: PhotoInfo; deliveryId: number }) {
  const t = useT();
  const { language } = useLanguage();
  const [src, setSrc] = useState<string | null>(null);
  const [missing, setMissing] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    void rpc.request('camera.photo', { id: p.photo.id }).then((r) => {
      if (!live) return;
      if (r.ok) setSrc(`data:image/jpeg;base64,${r.value.jpeg}`);
      else setMissing(errorText(t, r.error));
    });
    return () => {
      live = false;
    };
  }, [p.photo.id, t]);
  const time = formatDateTime(p.photo.takenAt, language);
  return (
    <figure className="sd-photo" data-testid="detail-photo" data-scan-id={p.photo.scanId} data-kind={p.photo.kind}>
      {src ? (
        <img src={src} alt={t('camera.photo.alt', { deliveryId: p.deliveryId, time })} width={240} />
      ) : (
        <p className={missing ? 'bad' : undefined}>{missing ?? t('shipments.loading')}</p>
      )}
      <figcaption>
        {t('camera.photo.caption', {
          time,
          kind: t(`camera.photo.kind.${p.photo.kind}`),
          desk: p.photo.desk,
          operator: p.photo.operatorName ?? t('camera.photo.nobody'),
        })}
      </figcaption>
    </figure>
  );
}

export function ParcelPhotos(p: { deliveryId: number }) {
  const t = useT();
  const [photos, setPhotos] = useState<PhotoInfo[] | null>(null);
  const proof = useProof();
  useEffect(() => {
    let live = true;
    const load = () =>
      void rpc
        .request('camera.photos', { deliveryId: p.deliveryId })
        .then((r) => live && setPhotos(r.ok ? r.value : []));
    load();
    // A photo arrives just after its scan's outcome: the shipment's change follows it closely.
    const off = rpc.on('shipments.changed', (e) => (e.all || e.deliveryIds.includes(p.deliveryId)) && load());
    return () => {
      live = false;
      off();
    };
  }, [p.deliveryId]);
  return (
    <section className="sd-block sd-photos" data-testid="detail-photos">
      <h3>{t('camera.photos')}</h3>
      {photos === null && <p>{t('shipments.loading')}</p>}
      {photos?.length === 0 && <p>{t('camera.photos.none')}</p>}
      <div className="sd-photo-list">
        {photos?.map((ph) => (
          <Photo key={ph.id} photo={ph} deliveryId={p.deliveryId} />
        ))}
      </div>
      <p>
        <button
          type="button"
          disabled={proof.busy}
          onClick={() => void proof.make([p.deliveryId])}
          data-testid="detail-proof"
        >
          {proof.busy ? t('camera.proof.making') : t('camera.proof')}
        </button>
      </p>
      {proof.error && (
        <p className="bad" role="alert">
          {proof.error}
        </p>
      )}
    </section>
  );
}

/** Shipments' action bar: one proof-of-packing PDF of the selected parcels. */
export function ProofButton(p: { selected: number[] }) {
  const t = useT();
  const proof = useProof();
  const n = p.selected.length;
  const tooMany = n > MAX_PROOF_PARCELS;
  return (
    <>
      <button
        type="button"
        disabled={n === 0 || tooMany || proof.busy}
        title={tooMany ? t('camera.proof.tooMany', { max: MAX_PROOF_PARCELS }) : undefined}
        onClick={() => void proof.make(p.selected)}
        data-testid="action-proof"
      >
        {proof.busy ? t('camera.proof.making') : n > 1 ? t('camera.proof.selected', { n }) : t('camera.proof')}
      </button>
      {proof.error && (
        <span className="bad" role="alert">
          {proof.error}
        </span>
      )}
    </>
  );
}
