/**
 * Shipments by hand (contract shared/contract/newShipment.ts): transport search with
 * prices, insert (then close and print at once, or keep it prepared), edit with If-Match and the
 * address book. Built from the station's WorkflowDeps: the active session's client, the cache,
 * the print queue and routing.
 *
 * Refusals the worker can fix come back as values on their fields: the draft rules
 * (shared/newShipment/draftRules.ts) before anything is sent, and the service's 422 `errors[]`
 * mapped from its paths to the form's fields, in the UI language (the client sends
 * accept-language, spec "Common conventions" 9). What the worker cannot fix here (logged out,
 * service unreachable) is a StationError with a message saying what to do.
 */
import type {
  AddressBookEntry,
  CloseAndPrintResult,
  FieldError,
  OpenedShipment,
  SaveResult,
  ShipmentDraft,
  TransportOption,
  TransportRequirements,
  TransportSearchResult,
} from '../../shared/contract/newShipment';
import { shipmentStates, type Shipment, type ShipmentParty } from '../../shared/contract/shipments';
import { checkDraft, issueMessage, type ServiceRules } from '../../shared/newShipment/draftRules';
import { finalPrice, markBest } from '../../shared/newShipment/pricing';
import { isServiceError, type ServiceError } from '../api/index';
import type { Handlers } from '../rpc/rpcServer';
import { StationError } from '../base/stationError';
import type { AddressBookRepo } from '../store/addressBookRepo';
import { foldText } from '../store/shipmentsRepo';
import { createCloseAndPrint } from './closeAndPrint';
import { classifyTrouble } from './serviceTrouble';
import {
  draftToDelivery,
  draftToTransportQuery,
  partyToDraft,
  serviceFieldErrors,
  shipmentToDraft,
} from './shipmentDraft';
import type { WorkflowDeps, WorkflowSession } from './workflowDeps';

export interface NewShipmentDeps {
  deps: WorkflowDeps;
  addressBook: AddressBookRepo;
  /** How long "close and print" waits for the labels to leave the printer before it reports them queued (default 10 s). */
  printWaitMs?: number;
}

type NewShipmentHandlers = Pick<
  Handlers,
  'transports.search' | 'shipments.insert' | 'shipments.openForEdit' | 'shipments.edit' | 'addressBook.search'
>;

const issuesOf = (issues: ReturnType<typeof checkDraft>): FieldError[] =>
  issues.map((i) => ({ field: i.field, code: i.code, message: issueMessage(i) }));

/** The service's error as a StationError the worker can act on (no answer, login, other refusals). */
function stationErrorOf(e: unknown, doing: string, what: Doing): StationError {
  const t = classifyTrouble(e);
  // `what` names the step for the UI's translation; `serviceMessage` is the service's own words (or the client's reason).
  const details = { ...what, serviceMessage: t.error.message };
  if (t.kind === 'login')
    return new StationError(
      'login_required',
      `${doing}: log in to the service again under Settings → Accounts. (${t.error.message})`,
      details,
    );
  if (t.kind === 'unreachable')
    return new StationError(
      'service_unreachable',
      `${doing}: the service did not answer. Check the connection and try again. (${t.error.message})`,
      details,
    );
  return new StationError(
    t.error.code,
    `${doing}: ${t.error.message}`,
    t.messages.length ? { ...details, messages: t.messages } : details,
  );
}

/** Which service call of the form failed (renderer: messages/errors.ts `error.doing.*`). */
type Doing = { doing: 'search' | 'save' } | { doing: 'read' | 'saveEdit'; deliveryId: number };

/** A validation refusal (422) or a licence limit (403) is something to show on the form. */
const isRefusal = (e: unknown): e is ServiceError =>
  isServiceError(e) && e.kind === 'http' && (e.status === 422 || e.status === 403);

export function createNewShipment(o: NewShipmentDeps) {
  const { deps } = o;
  const printWaitMs = o.printWaitMs ?? 10_000;
  const engine = createCloseAndPrint(deps);

  function session(): WorkflowSession {
    const s = deps.session();
    if (!s)
      throw new StationError(
        'login_required',
        'The station is not logged in to the service. Log in under Settings → Accounts, then try again.',
      );
    return s;
  }

  /** Spec "GET /api/v3/transports" (the client sends GET with a body, or POST with the override). */
  async function search(draft: ShipmentDraft): Promise<TransportSearchResult> {
    const issues = checkDraft(draft, { purpose: 'search', scanner: deps.scannerAffixes?.() });
    if (issues.length)
      return { options: [], fieldErrors: issuesOf(issues), message: 'Fill in the marked fields to search transports.' };
    const s = session();
    const query = draftToTransportQuery(draft);
    let results;
    try {
      results = await s.client.searchTransports([query]);
    } catch (e) {
      if (isRefusal(e)) return { options: [], fieldErrors: serviceFieldErrors(e.errors, query), message: e.message };
      throw stationErrorOf(e, 'Transport search failed', { doing: 'search' });
    }
    const transports = results.find((r) => r.delivery === 0)?.transports ?? [];
    const best = markBest(transports);
    const options: TransportOption[] = transports.map((t, i) => ({
      agent: t.agent,
      deliveryType: t.deliveryType,
      deliveryTime: t.deliveryTime,
      insurance: t.insurance?.description || null,
      extraServices: t.extraServices,
      price: t.price,
      finalPrice: finalPrice(t),
      cheapest: best.cheapest.has(i),
      fastest: best.fastest.has(i),
    }));
    return { options, fieldErrors: [], message: null };
  }

  /** Closes one new shipment (spec "PATCH /api/v3/deliveries") and prints its labels as routed, through the journal. */
  async function closeAndPrint(s: WorkflowSession, sh: Shipment): Promise<CloseAndPrintResult> {
    const [entry] = deps.repos.journal.begin(
      [{ accountId: s.accountId, source: 'new_shipment', deliveryId: sh.deliveryId, want: 'close_and_print' }],
      deps.clock.now(),
    );
    const r = (await engine.run(s, [entry!])).get(entry!.id);
    const e = (code: string, message: string, messages: string[] = []) => ({ code, message, messages });
    if (!r)
      return {
        closed: false,
        print: 'none',
        jobIds: [],
        error: e('close_no_answer', `Closing gave no result for shipment ${sh.deliveryId}.`),
      };
    switch (r.kind) {
      case 'queued': {
        const jobIds = r.jobs.map((j) => j.id);
        const settled = await deps.jobs.wait(jobIds, printWaitMs);
        if (settled.kind === 'done') return { closed: true, print: 'printed', jobIds, error: null };
        if (settled.kind === 'spooled') return { closed: true, print: 'spooled', jobIds, error: null };
        // Waiting for its printer (offline, out of labels): said at once with the printer's reason.
        if (settled.kind === 'waiting')
          return { closed: true, print: 'printer_down', jobIds, error: e(settled.reason.code, settled.reason.message) };
        if (settled.kind === 'failed') {
          const j = settled.job;
          return {
            closed: true,
            print: 'printer_down',
            jobIds,
            error: e(
              j.reasonCode ?? 'printer_error',
              j.reason ?? 'The printer did not print the label; it waits in the print queue.',
            ),
          };
        }
        return { closed: true, print: 'queued', jobIds, error: null };
      }
      case 'not_printed':
        return { closed: true, print: 'none', jobIds: [], error: e(r.error.code, r.error.message) };
      case 'waiting':
        // The journal finishes it by itself when the service answers: closed and printed, never twice.
        return { closed: r.closed, print: 'none', jobIds: [], error: e(r.trouble.error.code, r.trouble.error.message) };
      case 'missing':
        return { closed: false, print: 'none', jobIds: [], error: e(r.error.code, r.error.message) };
      case 'refused': {
        const c = r.close;
        if (c.kind === 'rejected')
          return { closed: false, print: 'none', jobIds: [], error: e('carrier_rejected', c.message, c.messages) };
        return {
          closed: c.kind === 'closed_elsewhere',
          print: 'none',
          jobIds: [],
          error: e(
            c.kind === 'cancelled' ? 'cancelled' : 'closed_elsewhere',
            `Shipment ${sh.deliveryId} was ${c.kind === 'cancelled' ? 'cancelled' : 'closed'} elsewhere meanwhile.`,
          ),
        };
      }
    }
  }

  function invalid(message: string, fieldErrors: FieldError[]): SaveResult {
    return { kind: 'invalid', message, fieldErrors };
  }

  /** The draft's own checks with the chosen transport's demands (spec "Transport option"). */
  function precheck(
    draft: ShipmentDraft,
    requires: TransportRequirements,
    services: readonly ServiceRules[] = [],
  ): SaveResult | null {
    const issues = checkDraft(draft, { purpose: 'save', requires, services, scanner: deps.scannerAffixes?.() });
    return issues.length ? invalid('Fix the marked fields, then save again.', issuesOf(issues)) : null;
  }

  /** Spec "POST /api/v3/deliveries": one item; 422 inserts nothing and names the fields. */
  async function insert(
    draft: ShipmentDraft,
    requires: TransportRequirements,
    thenClose: boolean,
  ): Promise<SaveResult> {
    const pre = precheck(draft, requires);
    if (pre) return pre;
    const s = session();
    const item = draftToDelivery(draft);
    let inserted;
    try {
      inserted = await s.client.insertDeliveries([item]);
    } catch (e) {
      if (isRefusal(e)) return invalid(e.message, serviceFieldErrors(e.errors, item));
      if (isServiceError(e) && e.outcome === 'unknown') {
        throw new StationError(
          'insert_outcome_unknown',
          'The service did not answer the insert and the check failed too: the shipment may or may not exist. Look for it in Shipments (sync) before trying again.',
        );
      }
      throw stationErrorOf(e, 'Saving the shipment failed', { doing: 'save' });
    }
    deps.recordDeliveries(s.accountId, inserted);
    const id = inserted[0]!.deliveryId;
    const sh = deps.repos.shipments.get(s.accountId, id);
    if (!sh)
      throw new StationError(
        'not_stored',
        `Shipment ${id} was saved at the service but the station could not read its answer. Sync the shipments.`,
        { deliveryId: id },
      );
    const close = thenClose ? await closeAndPrint(s, sh) : null;
    return { kind: 'saved', shipment: deps.repos.shipments.get(s.accountId, id) ?? sh, etag: null, close };
  }

  /** A GET of exactly this shipment without `fields`: its data and the ETag PUT's If-Match compares with. */
  async function readFresh(
    s: WorkflowSession,
    deliveryId: number,
  ): Promise<{ shipment: Shipment; etag: string | null }> {
    let found;
    try {
      found = await s.client.searchDeliveries({ deliveryIds: [deliveryId] });
    } catch (e) {
      throw stationErrorOf(e, `Reading shipment ${deliveryId} failed`, { doing: 'read', deliveryId });
    }
    if (found.status !== 'ok' || found.deliveries.length === 0) {
      throw new StationError('not_found', `Shipment ${deliveryId} was not found at the service.`, { deliveryId });
    }
    deps.recordDeliveries(s.accountId, found.deliveries);
    const shipment = deps.repos.shipments.get(s.accountId, deliveryId);
    if (!shipment) throw new StationError('not_stored', `Shipment ${deliveryId} could not be read.`, { deliveryId });
    return { shipment, etag: found.etag };
  }

  async function openForEdit(deliveryId: number): Promise<OpenedShipment> {
    const s = session();
    const { shipment, etag } = await readFresh(s, deliveryId);
    return { shipment, etag, draft: shipmentToDraft(shipment), editable: shipment.state === shipmentStates.prepared };
  }

  /** Spec "PUT /api/v3/deliveries" with If-Match: 412 = changed since read; nothing edited, the fresh data is shown. */
  async function edit(
    deliveryId: number,
    etag: string | null,
    draft: ShipmentDraft,
    requires: TransportRequirements,
  ): Promise<SaveResult> {
    const pre = precheck(draft, requires);
    if (pre) return pre;
    const s = session();
    const item = { ...draftToDelivery(draft), deliveryId };
    try {
      await s.client.editDeliveries([item], etag ? { ifMatch: etag } : {});
    } catch (e) {
      if (isServiceError(e) && e.kind === 'http' && e.status === 412) {
        const fresh = await readFresh(s, deliveryId);
        return {
          kind: 'conflict',
          message: `Someone else changed shipment ${deliveryId} since you opened it. Nothing was saved: the form shows the fresh data now.`,
          shipment: fresh.shipment,
          etag: fresh.etag,
          draft: shipmentToDraft(fresh.shipment),
        };
      }
      if (isRefusal(e)) return invalid(e.message, serviceFieldErrors(e.errors, item));
      throw stationErrorOf(e, `Saving shipment ${deliveryId} failed`, { doing: 'saveEdit', deliveryId });
    }
    // A fresh read stores the edit and gives the ETag for the next edit (PUT answers only the data).
    const fresh = await readFresh(s, deliveryId);
    return { kind: 'saved', shipment: fresh.shipment, etag: fresh.etag, close: null };
  }

  /** Parties used before, deduplicated (same person at the same place), newest first. */
  function addressBook(text: string, limit: number, type?: 'address' | 'pickUpPlace'): AddressBookEntry[] {
    const s = deps.session();
    if (!s) return [];
    const want = foldText(text.trim());
    const out = new Map<string, AddressBookEntry>();
    for (const u of o.addressBook.usedParties(s.accountId, 2000)) {
      const p = u.party;
      if (!isPersonParty(p)) continue;
      const draft = partyToDraft(p);
      if (type && draft.type !== type) continue;
      const key = foldText(
        [
          draft.type,
          draft.firstname,
          draft.surname,
          draft.address.street,
          draft.address.city,
          draft.address.postalCode,
          draft.pickUpPlace,
        ].join('|'),
      );
      const seen = out.get(key);
      if (seen) {
        seen.uses++;
        continue;
      }
      if (want && !foldText(partyText(p)).includes(want)) continue;
      if (out.size >= limit) continue;
      out.set(key, { key, party: draft, uses: 1, lastDeliveryId: u.deliveryId, lastUsed: u.created });
    }
    return [...out.values()];
  }

  const handlers: NewShipmentHandlers = {
    'transports.search': ({ draft }) => search(draft),
    'shipments.insert': ({ draft, requires, closeAndPrint: thenClose }) => insert(draft, requires, thenClose),
    'shipments.openForEdit': ({ deliveryId }) => openForEdit(deliveryId),
    'shipments.edit': ({ deliveryId, etag, draft, requires }) => edit(deliveryId, etag, draft, requires),
    'addressBook.search': ({ text, limit, type }) => addressBook(text, limit, type),
  };
  return { handlers, search, insert, openForEdit, edit, addressBook };
}

/** A person at an address or a pick-up place (not the company's own collection place). */
function isPersonParty(p: ShipmentParty): boolean {
  if (p.type === 'collectionPlace' || p.collectionPlace) return false;
  return !!(p.surname || p.firstname) && !!(p.address?.street || p.pickUpPlace);
}

function partyText(p: ShipmentParty): string {
  return [
    p.firstname,
    p.surname,
    p.contactPerson,
    p.email,
    p.phone,
    p.address?.street,
    p.address?.city,
    p.address?.postalCode,
    p.pickUpPlace,
  ]
    .filter(Boolean)
    .join(' ');
}

export type NewShipment = ReturnType<typeof createNewShipment>;
