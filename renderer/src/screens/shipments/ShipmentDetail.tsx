/**
 * Every field of one cached shipment (parties, packages, COD, value, extra services, state, dates)
 * and previews of the labels its last print jobs on this station printed. A closed parcel of
 * several packages reprints one package's label from its line (a lost label of package 2/3).
 */
import { useEffect, useState } from 'react';
import type { PreviewPage } from '../../../../shared/contract/printing';
import { isClosedState, type Shipment, type ShipmentParty } from '../../../../shared/contract/shipments';
import { errorText } from '../../i18n/errors';
import { askReprintReason } from '../../reprint/reprintReason';
import { useLanguage, useT, type T } from '../../i18n';
import type { MessageKey } from '../../i18n/en';
import { rpc } from '../../rpc/transport';
import { ParcelTrail } from './ParcelTrail';
import { ParcelPhotos } from '../../camera/ParcelPhotos';
import { extraArgName, extraName, formatDateTime, formatDecimal, stateClass, stateName } from './format';

interface Preview {
  jobId: number;
  pages: PreviewPage[];
}

/** The newest print jobs of the shipment (not cancelled), newest first, at most two. */
async function lastPreviews(deliveryId: number): Promise<Preview[]> {
  const jobs = await rpc.request('printing.queue.list', { limit: 500 });
  if (!jobs.ok) return [];
  const mine = jobs.value
    .filter((j) => j.kind === 'print' && j.format && j.deliveryIds.includes(deliveryId) && j.state !== 'cancelled')
    .sort((a, b) => b.id - a.id)
    .slice(0, 2);
  const out: Preview[] = [];
  for (const j of mine) {
    const r = await rpc.request('printing.preview', { jobId: j.id });
    if (r.ok) out.push({ jobId: j.id, pages: r.value.slice(0, 4) });
  }
  return out;
}

function Row(p: { label: string; value: string | null | undefined; testId?: string }) {
  return (
    <>
      <dt>{p.label}</dt>
      <dd data-testid={p.testId}>{p.value || '—'}</dd>
    </>
  );
}

const partyTypes = new Set(['address', 'collectionPlace', 'pickUpPlace']);
/** Spec "Party type rules": the three kinds of party, named in the UI language. */
function partyTypeName(t: T, type: string | null): string | null {
  return type && partyTypes.has(type) ? t(`shipments.partyType.${type}` as MessageKey) : type;
}

function Party(p: { t: T; title: string; party: ShipmentParty; testId: string }) {
  const { t, party } = p;
  const a = party.address;
  const name = party.name ?? ([party.firstname, party.surname].filter(Boolean).join(' ') || null);
  const address = a
    ? [[a.street, a.streetNumber].filter(Boolean).join(' '), [a.postalCode, a.city].filter(Boolean).join(' '), a.state]
        .filter(Boolean)
        .join(', ')
    : null;
  return (
    <section className="sd-block" data-testid={p.testId}>
      <h3>{p.title}</h3>
      <dl>
        <Row label={t('shipments.detail.partyType')} value={partyTypeName(t, party.type)} />
        <Row label={t('shipments.detail.name')} value={name} />
        {party.contactPerson && <Row label={t('shipments.detail.contact')} value={party.contactPerson} />}
        {party.collectionPlace && <Row label={t('shipments.detail.collectionPlace')} value={party.collectionPlace} />}
        {party.pickUpPlace && <Row label={t('shipments.detail.pickUpPlace')} value={party.pickUpPlace} />}
        {address && <Row label={t('shipments.detail.address')} value={address} />}
        <Row label={t('shipments.detail.phone')} value={party.phone} />
        <Row label={t('shipments.detail.email')} value={party.email} />
      </dl>
    </section>
  );
}

/** Reprints one package's label after the reason (Esc: nothing); says what came of it. */
async function reprintPackage(t: T, s: Shipment, n: number): Promise<{ ok: boolean; text: string } | null> {
  const of = s.packages.length;
  const parcel = s.externalId ?? s.deliveryNumber ?? String(s.deliveryId);
  const why = await askReprintReason(t('reprint.why.subject.package', { parcel, n, of }));
  if (!why) return null;
  const r = await rpc.request('shipments.reprint', { deliveryIds: [s.deliveryId], why, packageNumber: n });
  if (!r.ok) return { ok: false, text: errorText(t, r.error) };
  const res = r.value.results[0];
  if (res?.error) return { ok: false, text: errorText(t, res.error) };
  const printed = res?.print === 'printed' || res?.print === 'spooled';
  return {
    ok: true,
    text: t(printed ? 'shipments.detail.packageReprinted' : 'shipments.detail.packageQueued', { n, of }),
  };
}

export function ShipmentDetail(p: { deliveryId: number; onClose(): void }) {
  const t = useT();
  const language = useLanguage((s) => s.language);
  const [shipment, setShipment] = useState<Shipment | null | undefined>(undefined);
  const [previews, setPreviews] = useState<Preview[] | null>(null);
  const [reprinted, setReprinted] = useState<{ ok: boolean; text: string } | null>(null);

  useEffect(() => {
    let live = true;
    const load = () => {
      void rpc
        .request('shipments.get', { deliveryId: p.deliveryId })
        .then((r) => live && setShipment(r.ok ? r.value : null));
      void lastPreviews(p.deliveryId).then((v) => live && setPreviews(v));
    };
    setShipment(undefined);
    setPreviews(null);
    setReprinted(null);
    load();
    const offChanged = rpc.on('shipments.changed', (e) => (e.all || e.deliveryIds.includes(p.deliveryId)) && load());
    return () => {
      live = false;
      offChanged();
    };
  }, [p.deliveryId]);

  return (
    <aside
      className="sd"
      aria-label={t('shipments.detail.title', { id: p.deliveryId })}
      data-testid="shipment-detail"
      onKeyDown={(e) => e.key === 'Escape' && p.onClose()}
    >
      <header>
        <h2>{t('shipments.detail.title', { id: p.deliveryId })}</h2>
        <button type="button" onClick={p.onClose} data-testid="detail-close">
          {t('shipments.detail.close')} <kbd>Esc</kbd>
        </button>
      </header>
      {shipment === undefined && <p>{t('shipments.detail.loading')}</p>}
      {shipment === null && <p className="bad">{t('shipments.detail.notFound')}</p>}
      {shipment && (
        <div className="sd-body">
          <section className="sd-block">
            <h3>{t('shipments.detail.general')}</h3>
            <dl>
              <dt>{t('shipments.detail.state')}</dt>
              <dd>
                <span className={`st ${stateClass(shipment.state)}`} data-testid="detail-state">
                  {stateName(t, shipment.state)}
                </span>
              </dd>
              <Row label={t('shipments.detail.externalId')} value={shipment.externalId} testId="detail-external-id" />
              <Row label={t('shipments.detail.deliveryNumber')} value={shipment.deliveryNumber} />
              <Row
                label={t('shipments.detail.carrier')}
                value={[shipment.agent, shipment.deliveryType].filter(Boolean).join(' · ')}
                testId="detail-carrier"
              />
              <Row label={t('shipments.detail.created')} value={formatDateTime(shipment.created, language)} />
              <Row label={t('shipments.detail.closed')} value={formatDateTime(shipment.closed, language)} />
              <Row
                label={t('shipments.detail.source')}
                value={shipment.sourceName ?? (shipment.source === null ? null : String(shipment.source))}
              />
              <Row label={t('shipments.detail.synced')} value={formatDateTime(shipment.syncedAt, language)} />
            </dl>
          </section>
          <Party t={t} title={t('shipments.detail.recipient')} party={shipment.recipient} testId="detail-recipient" />
          <Party t={t} title={t('shipments.detail.sender')} party={shipment.sender} testId="detail-sender" />
          <section className="sd-block">
            <h3>{t('shipments.detail.money')}</h3>
            <dl>
              <Row
                label={t('shipments.detail.value')}
                value={formatDecimal(shipment.value, shipment.valueCurrency, language)}
              />
              <Row
                label={t('shipments.detail.cod')}
                value={formatDecimal(shipment.cod, shipment.codCurrency, language)}
                testId="detail-cod"
              />
              <Row label={t('shipments.detail.vs')} value={shipment.variableSymbol} />
              <Row label={t('shipments.detail.note')} value={shipment.ticketNote} />
            </dl>
          </section>
          <section className="sd-block" data-testid="detail-packages">
            <h3>{t('shipments.detail.packages', { n: shipment.packages.length })}</h3>
            <ol>
              {shipment.packages.map((pk, i) => (
                <li key={i}>
                  <strong>{t('shipments.detail.package', { n: i + 1 })}</strong>{' '}
                  {pk.weight && t('shipments.detail.weight', { kg: formatDecimal(pk.weight, null, language) })}
                  {pk.length !== null &&
                    pk.width !== null &&
                    pk.height !== null &&
                    ` · ${pk.length}×${pk.width}×${pk.height} cm`}
                  {' · '}
                  <code>{pk.barcode ?? t('shipments.detail.noBarcode')}</code>
                  {isClosedState(shipment.state) && shipment.packages.length > 1 && (
                    <button
                      type="button"
                      className="sd-reprint-package"
                      onClick={() => void reprintPackage(t, shipment, i + 1).then((r) => r && setReprinted(r))}
                      data-testid={`detail-reprint-package-${i + 1}`}
                    >
                      {t('shipments.detail.reprintPackage')}
                    </button>
                  )}
                </li>
              ))}
            </ol>
            {reprinted && (
              <p
                className={reprinted.ok ? 'sd-reprinted' : 'sd-reprinted bad'}
                role="status"
                data-testid="detail-reprinted"
              >
                {reprinted.text}
              </p>
            )}
          </section>
          <section className="sd-block">
            <h3>{t('shipments.detail.extras')}</h3>
            {shipment.extraServices.length === 0 ? (
              <p>{t('shipments.detail.noExtras')}</p>
            ) : (
              <ul data-testid="detail-extras">
                {shipment.extraServices.map((x, i) => (
                  <li key={i} data-code={x.code} title={x.code}>
                    {extraName(t, x.code)}
                    {Object.entries(x.arguments)
                      .map(([k, v]) => ` · ${extraArgName(t, k)}: ${v}`)
                      .join('')}
                  </li>
                ))}
              </ul>
            )}
          </section>
          <ParcelTrail deliveryId={p.deliveryId} />
          <ParcelPhotos deliveryId={p.deliveryId} />
          <section className="sd-block sd-previews" data-testid="detail-previews">
            <h3>{t('shipments.detail.previews')}</h3>
            {previews === null && <p>{t('shipments.loading')}</p>}
            {previews?.length === 0 && <p>{t('shipments.detail.noPreviews')}</p>}
            {previews?.map((pv) => (
              <figure key={pv.jobId}>
                <figcaption>{t('shipments.detail.previewJob', { id: pv.jobId })}</figcaption>
                <div className="sd-pages">
                  {pv.pages.map((pg, i) => (
                    <img
                      key={i}
                      src={`data:image/png;base64,${pg.png}`}
                      alt={t('shipments.detail.previewJob', { id: pv.jobId })}
                      data-testid="label-preview"
                    />
                  ))}
                </div>
              </figure>
            ))}
          </section>
        </div>
      )}
    </aside>
  );
}
