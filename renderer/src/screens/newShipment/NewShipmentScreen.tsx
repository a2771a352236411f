/**
 * New shipment: a shipment made by hand at the desk (a return, a replacement, a parcel
 * for a walk-in customer). Sender and recipient shaped by the party type rules, value, COD,
 * packages; transport search with prices side by side; extra services of the chosen transport;
 * then save and close + print at once, or keep it prepared. Also edit of a prepared shipment
 * (opened from its number here or from another screen through useNav().go('newShipment',
 * { deliveryIds: [id] })), with the 412 of a concurrent change shown plainly, and cancel.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { focusFirstInvalid } from '../../forms/focusFirstInvalid';
import type { SaveResult, ShipmentDraft, TransportOption } from '../../../../shared/contract/newShipment';
import type { ActionPrint, ShipmentActionSummary } from '../../../../shared/contract/shipmentActions';
import { shipmentStates, type CachedCollectionPlace } from '../../../../shared/contract/shipments';
import { DESK_CODE_PREFIX } from '../../../../shared/scan/deskCodes';
import { checkDraft, type DraftIssue } from '../../../../shared/newShipment/draftRules';
import { useLanguage, useT, type T } from '../../i18n';
import { useSettings } from '../../state/settingsStore';
import type { MessageKey } from '../../i18n/en';
import { errorText, fieldErrors, type MainError } from '../../i18n/errors';
import { rpc } from '../../rpc/transport';
import { useNav } from '../../state/navStore';
import { draftInLanguage, emptyDraft, emptyPackage, searchKey } from './draftState';
import { useKeptState } from './keptState';
import { ExtraServices } from './ExtraServices';
import { Field, GroupError } from './Field';
import { PartyFields } from './PartyFields';
import { withFieldLabels } from './serviceFieldNames';
import { TransportOptions } from './TransportOptions';
import './newShipment.css';

type Mode = { kind: 'new' } | { kind: 'edit'; deliveryId: number; etag: string | null; editable: boolean };
/** The banner's text is made at render, so it follows a change of the UI language. */
type Banner = { kind: 'error' | 'info' | 'ok' | 'conflict'; text: (t: T) => string; messages?: string[] } | null;

/**
 * How a closed shipment's labels look: green only when printed; handed to the
 * print system (not confirmed printed) plain; waiting for the printer or in the queue amber; none red.
 */
function bannerOfPrint(print: ActionPrint): 'ok' | 'info' | 'conflict' | 'error' {
  return print === 'printed' ? 'ok' : print === 'spooled' ? 'info' : print === 'none' ? 'error' : 'conflict';
}
type Saved = Extract<SaveResult, { kind: 'saved' }>;

function issueText(t: T, i: DraftIssue, nameOf: (code: string) => string): string {
  return t(`newShipment.err.${i.code}` as MessageKey, {
    other: i.params?.other ? nameOf(i.params.other) : '',
    prefix: DESK_CODE_PREFIX,
  });
}

/** Field errors from an RPC refusal of the params (paths under `draft`), in the UI language: never zod's English. */
function paramErrors(t: T, error: MainError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [field, text] of Object.entries(fieldErrors(t, error)))
    if (field.startsWith('draft.')) out[field.slice('draft.'.length)] = text;
  return out;
}

/** Whether a refusal came from the service (its words are shown) or from the station's own checks of the draft. */
const serviceSaid = (fieldErrors: { code: string }[]) =>
  fieldErrors.length === 0 || fieldErrors.some((e) => e.code === 'service');

/**
 * The place this desk sent from last time, else the first active one. The core keeps it in the
 * station's settings: the web host's page origin changes with its port at every launch, so
 * browser storage would forget it.
 */
function defaultPlace(
  places: CachedCollectionPlace[],
  last: string | null | undefined,
): CachedCollectionPlace | undefined {
  return places.find((p) => p.active && p.identificator === last) ?? places.find((p) => p.active);
}

function focusField(field: string | undefined) {
  if (!field) return;
  const el = document.querySelector<HTMLElement>(
    `[data-field="${CSS.escape(field)}"], [data-testid="ns-${CSS.escape(field)}"]`,
  );
  el?.focus();
}

export function NewShipmentScreen() {
  const t = useT();
  const nav = useNav();
  // Kept across screen switches (keptState.ts): an F-key away and back finds the draft as left.
  const [draft, setDraft] = useKeptState<ShipmentDraft>('draft', emptyDraft);
  const [mode, setMode] = useKeptState<Mode>('mode', { kind: 'new' });
  const [errors, setErrors] = useKeptState<Record<string, string>>('errors', {});
  const [banner, setBanner] = useKeptState<Banner>('banner', null);
  const [places, setPlaces] = useState<CachedCollectionPlace[]>([]);
  const [options, setOptions] = useKeptState<TransportOption[] | null>('options', null);
  const [chosen, setChosen] = useKeptState<number | null>('chosen', null);
  const [searchedFor, setSearchedFor] = useKeptState<string | null>('searchedFor', null);
  const formRef = useRef<HTMLElement>(null);
  const [busy, setBusy] = useState<null | 'search' | 'save' | 'close' | 'cancel' | 'open'>(null);
  const [saved, setSaved] = useKeptState<Saved | null>('saved', null);
  const [openId, setOpenId] = useKeptState('openId', '');
  const [lastPlace, setLastPlace] = useState<string | null | undefined>(undefined);

  const option = chosen !== null ? (options?.[chosen] ?? null) : null;
  const stale = options !== null && searchedFor !== searchKey(draft);
  const nameOf = useCallback(
    (code: string) => option?.extraServices.find((s) => s.code === code)?.name ?? code,
    [option],
  );

  useEffect(() => {
    void Promise.all([rpc.request('collectionPlaces.list', {}), rpc.request('settings.get', {})]).then(([r, s]) => {
      if (!r.ok) return;
      const last = s.ok ? s.value.newShipment.lastSenderPlace : null;
      setLastPlace(last);
      setPlaces(r.value);
      const first = defaultPlace(r.value, last);
      setDraft((d) =>
        d.sender.type === 'collectionPlace' && !d.sender.collectionPlace && first
          ? { ...d, sender: { ...d.sender, collectionPlace: first.identificator } }
          : d,
      );
    });
  }, [setDraft]);

  /** A new shipment the worker typed into and did not save: dropping it asks first. */
  const unsaved =
    mode.kind === 'new' &&
    !saved &&
    JSON.stringify({ ...draft, sender: { ...draft.sender, collectionPlace: '' } }) !== JSON.stringify(emptyDraft());
  const mayDrop = () => !unsaved || window.confirm(t('newShipment.dropDraft'));

  const reset = () => {
    if (!mayDrop()) return;
    window.scrollTo({ top: 0 });
    setDraft(() => {
      const d = emptyDraft();
      const first = defaultPlace(places, lastPlace);
      return first ? { ...d, sender: { ...d.sender, collectionPlace: first.identificator } } : d;
    });
    setMode({ kind: 'new' });
    setErrors({});
    setBanner(null);
    setOptions(null);
    setChosen(null);
    setSaved(null);
  };

  const open = useCallback(
    async (deliveryId: number) => {
      setBusy('open');
      const r = await rpc.request('shipments.openForEdit', { deliveryId });
      setBusy(null);
      setSaved(null);
      setOptions(null);
      setChosen(null);
      setErrors({});
      if (!r.ok) {
        setBanner({ kind: 'error', text: (t) => errorText(t, r.error) });
        return;
      }
      setDraft(draftInLanguage(r.value.draft, useLanguage.getState().language));
      setMode({ kind: 'edit', deliveryId, etag: r.value.etag, editable: r.value.editable });
      setBanner(
        r.value.editable
          ? { kind: 'info', text: (t) => t('newShipment.editing', { id: deliveryId }) }
          : { kind: 'error', text: (t) => t('newShipment.notEditable', { id: deliveryId }) },
      );
    },
    [setBanner, setChosen, setDraft, setErrors, setMode, setOptions, setSaved],
  );

  // Another screen asked to edit a shipment (useNav().go('newShipment', { deliveryIds: [id] })).
  const focusId = nav.screen === 'newShipment' ? nav.focus?.deliveryIds?.[0] : undefined;
  useEffect(() => {
    if (focusId) {
      useNav.setState({ focus: null });
      if (mayDrop()) void open(focusId);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- mayDrop reads the draft of this render
  }, [focusId, open]);

  // Carrier, service and fee names come in the language of the search: ask again in the new one.
  const language = useLanguage((s) => s.language);
  // Kept with the options: options searched in English and kept while the language changed on
  // another screen are searched again on return, so their names (the service's, in the language
  // asked for) are in the UI language.
  const [searchedIn, setSearchedIn] = useKeptState('searchedIn', language);
  useEffect(() => {
    // Money and weights shown with the new language's separator (1,5 / 1.5); the values stay.
    setDraft((d) => draftInLanguage(d, language));
    if (language === searchedIn) return;
    setSearchedIn(language);
    if (options && !stale && busy === null) void search(true);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [language]);

  const update = (d: ShipmentDraft) => {
    setDraft(d);
    setSaved(null);
  };

  function showIssues(issues: DraftIssue[]) {
    const map: Record<string, string> = {};
    for (const i of issues) map[i.field] ??= issueText(t, i, nameOf);
    setErrors(map);
    focusFirstInvalid(formRef.current, () => focusField(issues[0]?.field));
  }

  /** `quiet`: only refresh the options shown (the language changed); errors and messages stay. */
  async function search(quiet = false) {
    const issues = checkDraft(draft, { purpose: 'search', scanner: useSettings.getState().settings?.scanner });
    if (issues.length) {
      if (quiet) return;
      showIssues(issues);
      setBanner({ kind: 'error', text: (t) => t('newShipment.fixToSearch') });
      return;
    }
    setBusy('search');
    if (!quiet) setErrors({});
    const r = await rpc.request('transports.search', { draft });
    setBusy(null);
    if (!r.ok || r.value.fieldErrors.length) {
      if (quiet) return;
      if (!r.ok) {
        setErrors(paramErrors(t, r.error));
        setBanner({ kind: 'error', text: (t) => errorText(t, r.error) });
        focusFirstInvalid(formRef.current);
        return;
      }
      const v = r.value;
      setErrors(
        Object.fromEntries(
          v.fieldErrors.map((e) => [
            e.field,
            e.code === 'service'
              ? withFieldLabels(t, e.message, [e.field])
              : t(`newShipment.err.${e.code}` as MessageKey, { other: '', prefix: DESK_CODE_PREFIX }),
          ]),
        ),
      );
      // The service's refusal in its own words; the station's own field checks by the form's text.
      setBanner({
        kind: 'error',
        text: (t) =>
          (serviceSaid(v.fieldErrors) &&
            v.message &&
            withFieldLabels(
              t,
              v.message,
              v.fieldErrors.map((e) => e.field),
            )) ||
          t('newShipment.fixToSearch'),
      });
      focusFirstInvalid(formRef.current, () => focusField(v.fieldErrors[0]?.field));
      return;
    }
    const v = r.value;
    if (!quiet) setBanner(null);
    setOptions(v.options);
    setSearchedFor(searchKey(draft));
    setSearchedIn(language);
    // Keep the carrier already chosen (an edit, or a search again) when it is still offered.
    const keep = v.options.findIndex((o) => o.agent.code === draft.agent && o.deliveryType.code === draft.deliveryType);
    if (keep >= 0) choose(keep, v.options);
    else setChosen(null);
  }

  function choose(i: number, list = options) {
    const o = list?.[i];
    if (!o) return;
    setChosen(i);
    setErrors((e) => {
      const { transport: _t, ...rest } = e;
      return rest;
    });
    setDraft((d) => ({
      ...d,
      agent: o.agent.code,
      deliveryType: o.deliveryType.code,
      // Only services this transport offers and does not apply by itself stay chosen.
      extraServices: d.extraServices.filter((s) => o.extraServices.some((x) => x.code === s.code && !x.implicit)),
    }));
  }

  async function save(closeAndPrint: boolean) {
    const requires = option
      ? { phoneRequired: option.deliveryType.phoneRequired, dimensionsRequired: option.deliveryType.dimensionsRequired }
      : { phoneRequired: false, dimensionsRequired: false };
    const issues = checkDraft(draft, {
      purpose: 'save',
      requires,
      services: option?.extraServices ?? [],
      scanner: useSettings.getState().settings?.scanner,
    });
    if (issues.length) {
      showIssues(issues);
      setBanner({ kind: 'error', text: (t) => t('newShipment.fixToSave') });
      return;
    }
    setBusy('save');
    setErrors({});
    const r =
      mode.kind === 'edit'
        ? await rpc.request('shipments.edit', { deliveryId: mode.deliveryId, etag: mode.etag, draft, requires })
        : await rpc.request('shipments.insert', { draft, requires, closeAndPrint });
    setBusy(null);
    if (!r.ok) {
      setErrors(paramErrors(t, r.error));
      setBanner({ kind: 'error', text: (t) => errorText(t, r.error) });
      focusFirstInvalid(formRef.current);
      return;
    }
    const v = r.value;
    if (v.kind === 'invalid') {
      setErrors(
        Object.fromEntries(
          v.fieldErrors.map((e) => [
            e.field,
            e.code === 'service'
              ? withFieldLabels(t, e.message, [e.field])
              : t(`newShipment.err.${e.code}` as MessageKey, { other: '', prefix: DESK_CODE_PREFIX }),
          ]),
        ),
      );
      setBanner({
        kind: 'error',
        text: (t) =>
          serviceSaid(v.fieldErrors)
            ? t('newShipment.refused', {
                message: withFieldLabels(
                  t,
                  v.message,
                  v.fieldErrors.map((e) => e.field),
                ),
              })
            : t('newShipment.fixToSave'),
      });
      focusFirstInvalid(formRef.current, () => focusField(v.fieldErrors[0]?.field));
      return;
    }
    if (v.kind === 'conflict') {
      setDraft(draftInLanguage(v.draft, useLanguage.getState().language));
      setMode({
        kind: 'edit',
        deliveryId: v.shipment.deliveryId,
        etag: v.etag,
        editable: v.shipment.state === shipmentStates.prepared,
      });
      setBanner({ kind: 'conflict', text: (t) => t('newShipment.conflict', { id: v.shipment.deliveryId }) });
      return;
    }
    if (draft.sender.type === 'collectionPlace' && draft.sender.collectionPlace) {
      const id = draft.sender.collectionPlace;
      setLastPlace(id);
      void rpc.request('settings.set', { newShipment: { lastSenderPlace: id } });
    }
    setSaved(v);
    setMode({
      kind: 'edit',
      deliveryId: v.shipment.deliveryId,
      etag: v.etag,
      editable: v.shipment.state === shipmentStates.prepared,
    });
    setBanner(null);
  }

  async function closeSaved(id: number) {
    setBusy('close');
    const r = await rpc.request('shipments.close', { deliveryIds: [id] });
    setBusy(null);
    reportAction(r, id, 'close');
  }

  async function cancelShipment(id: number) {
    if (!window.confirm(t('newShipment.cancelConfirm', { id }))) return;
    setBusy('cancel');
    const r = await rpc.request('shipments.cancel', { deliveryIds: [id] });
    setBusy(null);
    reportAction(r, id, 'cancel');
  }

  function reportAction(
    r: { ok: true; value: ShipmentActionSummary } | { ok: false; error: MainError },
    id: number,
    what: 'close' | 'cancel',
  ) {
    if (!r.ok) return setBanner({ kind: 'error', text: (t) => errorText(t, r.error) });
    const res = r.value.results.find((x) => x.deliveryId === id);
    if (res?.outcome !== 'done')
      return setBanner({
        kind: 'error',
        text: (t) => (res?.error ? errorText(t, res.error) : t('newShipment.actionFailed')),
        messages: res?.error?.messages.filter((m) => m !== res.error?.message),
      });
    setSaved(null);
    setMode((m) => (m.kind === 'edit' ? { ...m, editable: false } : m));
    if (what === 'cancel') return setBanner({ kind: 'ok', text: (t) => t('newShipment.cancelled', { id }) });
    // One label per package: "3 štítky", not "štítek", for a parcel of three.
    setBanner({
      kind: bannerOfPrint(res.print),
      text: (t) => t(`newShipment.print.${res.print}`, { id, n: draft.packages.length }),
    });
  }

  const editable = mode.kind === 'new' || mode.editable;
  const codGiven = draft.cod.trim() !== '';
  const err = (f: string) => errors[f];
  const title = mode.kind === 'edit' ? t('newShipment.titleEdit', { id: mode.deliveryId }) : t('newShipment.title');
  const setPkg = (i: number, k: keyof ShipmentDraft['packages'][number], v: string) =>
    update({ ...draft, packages: draft.packages.map((p, j) => (j === i ? { ...p, [k]: v } : p)) });
  const chosenLabel = useMemo(
    () =>
      draft.agent ? `${option?.agent.name ?? draft.agent} · ${option?.deliveryType.name ?? draft.deliveryType}` : null,
    [draft.agent, draft.deliveryType, option],
  );

  return (
    <section
      ref={formRef}
      className="ns"
      data-testid="screen-newShipment"
      aria-busy={busy !== null}
      onKeyDown={(e) => {
        // Keyboard-first: Enter in a field of the shipment searches transports (again).
        const el = e.target as HTMLElement;
        if (
          e.key === 'Enter' &&
          el.tagName === 'INPUT' &&
          el.dataset.field &&
          !el.dataset.field.startsWith('extraServices.') &&
          busy === null &&
          editable
        ) {
          e.preventDefault();
          void search();
        }
      }}
    >
      <header className="ns-head">
        <h1>{title}</h1>
        <span className="spacer" />
        <form
          className="ns-open"
          onSubmit={(e) => {
            e.preventDefault();
            const id = Number(openId);
            if (Number.isSafeInteger(id) && id > 0 && mayDrop()) void open(id);
          }}
        >
          <label>
            {t('newShipment.openLabel')}{' '}
            <input
              data-testid="ns-edit-id"
              value={openId}
              inputMode="numeric"
              onChange={(e) => setOpenId(e.target.value.replace(/\D/g, ''))}
            />
          </label>
          <button type="submit" data-testid="ns-edit-open" disabled={!openId || busy !== null}>
            {t('newShipment.open')}
          </button>
        </form>
        <button type="button" data-testid="ns-new" onClick={reset}>
          {t('newShipment.new')}
        </button>
      </header>

      {banner && (
        <div
          className={`ns-banner is-${banner.kind}`}
          role={banner.kind === 'error' || banner.kind === 'conflict' ? 'alert' : 'status'}
          data-testid={banner.kind === 'conflict' ? 'ns-conflict' : 'ns-banner'}
          data-kind={banner.kind}
        >
          {banner.text(t)}
          {banner.messages?.map((m) => (
            <div key={m}>{m}</div>
          ))}
        </div>
      )}

      {saved && (
        <div
          className={`ns-banner is-${saved.close?.closed ? bannerOfPrint(saved.close.print) : saved.close ? 'error' : 'ok'}`}
          data-testid="ns-saved"
          data-print={saved.close?.print ?? 'none'}
        >
          <strong>
            {saved.close
              ? saved.close.closed
                ? t(`newShipment.print.${saved.close.print}`, {
                    id: saved.shipment.deliveryId,
                    n: saved.shipment.packages.length,
                  })
                : t('newShipment.savedNotClosed', { id: saved.shipment.deliveryId })
              : t('newShipment.savedPrepared', { id: saved.shipment.deliveryId })}
          </strong>
          {saved.close?.error && (
            <div>
              {[
                errorText(t, saved.close.error),
                ...saved.close.error.messages.filter((m) => m !== saved.close?.error?.message),
              ].join(' ')}
            </div>
          )}
          <div className="ns-actions">
            <button type="button" className="primary" data-testid="ns-saved-new" onClick={reset}>
              {t('newShipment.new')}
            </button>
          </div>
          {saved.shipment.state === shipmentStates.prepared && (
            <div className="ns-actions">
              <button
                type="button"
                data-testid="ns-saved-close"
                disabled={busy !== null}
                onClick={() => void closeSaved(saved.shipment.deliveryId)}
              >
                {t('newShipment.closeAndPrint')}
              </button>
              <button
                type="button"
                data-testid="ns-saved-cancel"
                disabled={busy !== null}
                onClick={() => void cancelShipment(saved.shipment.deliveryId)}
              >
                {t('newShipment.cancel')}
              </button>
            </div>
          )}
        </div>
      )}

      <div className="ns-parties">
        <PartyFields
          role="sender"
          party={draft.sender}
          places={places}
          errors={errors}
          disabled={!editable}
          onChange={(p) => update({ ...draft, sender: p })}
        />
        <PartyFields
          role="recipient"
          party={draft.recipient}
          places={places}
          errors={errors}
          disabled={!editable}
          onChange={(p) => update({ ...draft, recipient: p })}
        />
      </div>

      <fieldset className="ns-card ns-shipment" disabled={!editable}>
        <legend>{t('newShipment.shipment')}</legend>
        <div className="ns-row">
          <Field
            field="value"
            label={t('newShipment.value')}
            value={draft.value}
            onChange={(v) => update({ ...draft, value: v })}
            error={err('value')}
            required
            inputMode="decimal"
            className="ns-narrow"
          />
          <Field
            field="valueCurrency"
            label={t('newShipment.currency')}
            value={draft.valueCurrency}
            onChange={(v) => update({ ...draft, valueCurrency: v })}
            error={err('valueCurrency')}
            required
            className="ns-tiny"
          />
          <Field
            field="cod"
            label={t('newShipment.cod')}
            value={draft.cod}
            onChange={(v) => update({ ...draft, cod: v })}
            error={err('cod')}
            inputMode="decimal"
            className="ns-narrow"
          />
          <Field
            field="codCurrency"
            label={t('newShipment.currency')}
            value={draft.codCurrency}
            onChange={(v) => update({ ...draft, codCurrency: v })}
            error={err('codCurrency')}
            required={codGiven}
            className="ns-tiny"
          />
          <Field
            field="variableSymbol"
            label={t('newShipment.variableSymbol')}
            value={draft.variableSymbol}
            onChange={(v) => update({ ...draft, variableSymbol: v })}
            error={err('variableSymbol')}
            required={codGiven}
            inputMode="numeric"
            className="ns-narrow"
          />
          <Field
            field="externalId"
            label={t('newShipment.externalId')}
            value={draft.externalId}
            onChange={(v) => update({ ...draft, externalId: v })}
            error={err('externalId')}
          />
          <Field
            field="ticketNote"
            label={t('newShipment.ticketNote')}
            value={draft.ticketNote}
            onChange={(v) => update({ ...draft, ticketNote: v })}
            error={err('ticketNote')}
            className="ns-wide"
          />
        </div>
        <table className="ns-packages" data-testid="ns-packages">
          <thead>
            <tr>
              <th>#</th>
              <th>{t('newShipment.pkg.weight')}</th>
              <th>{t('newShipment.pkg.length')}</th>
              <th>{t('newShipment.pkg.width')}</th>
              <th>{t('newShipment.pkg.height')}</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {draft.packages.map((p, i) => (
              <tr key={i}>
                <td>{i + 1}</td>
                {(['weight', 'length', 'width', 'height'] as const).map((k) => (
                  <td key={k}>
                    <Field
                      field={`packages.${i}.${k}`}
                      label={t(`newShipment.pkg.${k}`)}
                      value={p[k]}
                      onChange={(v) => setPkg(i, k, v)}
                      error={err(`packages.${i}.${k}`)}
                      inputMode={k === 'weight' ? 'decimal' : 'numeric'}
                      className="ns-cell"
                    />
                  </td>
                ))}
                <td>
                  {draft.packages.length > 1 && (
                    <button
                      type="button"
                      className="ns-link"
                      onClick={() => update({ ...draft, packages: draft.packages.filter((_, j) => j !== i) })}
                    >
                      {t('newShipment.pkg.remove')}
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <GroupError field="packages" error={err('packages')} />
        <button
          type="button"
          className="ns-link"
          data-testid="ns-add-package"
          onClick={() => update({ ...draft, packages: [...draft.packages, emptyPackage()] })}
        >
          {t('newShipment.pkg.add')}
        </button>
      </fieldset>

      <section className="ns-card ns-transport">
        <div className="ns-transport-head">
          <h2>{t('newShipment.transport.title')}</h2>
          {chosenLabel && (
            <span className="ns-chosen" data-testid="ns-chosen">
              {t('newShipment.transport.chosen', { name: chosenLabel })}
            </span>
          )}
          <span className="spacer" />
          {stale && (
            <span className="ns-stale" data-testid="ns-stale">
              {t('newShipment.transport.stale')}
            </span>
          )}
          <button
            type="button"
            className="primary"
            data-testid="ns-search"
            disabled={busy !== null || !editable}
            onClick={() => void search()}
          >
            {busy === 'search' ? t('newShipment.transport.searching') : t('newShipment.transport.search')}
          </button>
        </div>
        <GroupError field="transport" error={err('transport')} />
        {options && editable && <TransportOptions options={options} chosen={chosen} onChoose={(i) => choose(i)} />}
        {option && editable && (
          <ExtraServices
            option={option}
            draft={draft}
            errors={errors}
            onChange={(s) => update({ ...draft, extraServices: s })}
          />
        )}
      </section>

      <footer className="ns-footer">
        {mode.kind === 'new' ? (
          <>
            <button
              type="button"
              className="primary big"
              data-testid="ns-save-close"
              disabled={busy !== null}
              onClick={() => void save(true)}
            >
              {busy === 'save' ? t('newShipment.saving') : t('newShipment.saveAndPrint')}
            </button>
            <button
              type="button"
              className="big"
              data-testid="ns-save"
              disabled={busy !== null}
              onClick={() => void save(false)}
            >
              {t('newShipment.savePrepared')}
            </button>
          </>
        ) : (
          <>
            <button
              type="button"
              className="primary big"
              data-testid="ns-save"
              disabled={busy !== null || !editable}
              onClick={() => void save(false)}
            >
              {busy === 'save' ? t('newShipment.saving') : t('newShipment.saveChanges')}
            </button>
            {editable && !saved && (
              <>
                <button
                  type="button"
                  className="big"
                  data-testid="ns-close"
                  disabled={busy !== null}
                  onClick={() => void closeSaved(mode.deliveryId)}
                >
                  {t('newShipment.closeAndPrint')}
                </button>
                <button
                  type="button"
                  className="big danger"
                  data-testid="ns-cancel"
                  disabled={busy !== null}
                  onClick={() => void cancelShipment(mode.deliveryId)}
                >
                  {t('newShipment.cancel')}
                </button>
              </>
            )}
          </>
        )}
      </footer>
    </section>
  );
}
