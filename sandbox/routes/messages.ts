/** Messages of the resources (spec "Endpoints": the success messages are the spec's own). */
import type { Msg } from '../i18n';

export const routeMessages = {
  created: { en: 'Deliveries successfully created', cs: 'Zásilky byly úspěšně vytvořeny' },
  retrieved: { en: 'Deliveries successfully retrieved', cs: 'Zásilky byly úspěšně načteny' },
  closed: { en: 'Deliveries successfully closed!', cs: 'Zásilky byly úspěšně uzavřeny!' },
  edited: { en: 'Deliveries successfully edited', cs: 'Zásilky byly úspěšně upraveny' },
  canceled: { en: 'Deliveries successfully canceled', cs: 'Zásilky byly úspěšně zrušeny' },
  transports: { en: 'Transports successfully found', cs: 'Přepravy byly úspěšně nalezeny' },
  tickets: { en: 'Tickets successfully generated', cs: 'Štítky byly úspěšně vygenerovány' },
  zpl: { en: 'ZPL tickets successfully retrieved', cs: 'ZPL štítky byly úspěšně načteny' },
  traces: { en: 'Traces successfully retrieved', cs: 'Sledování zásilek bylo úspěšně načteno' },
  protocolCreated: { en: 'Collection protocol successfully created!', cs: 'Svozový protokol byl úspěšně vytvořen!' },
  protocolFetched: { en: 'Protocol successfully fetched!', cs: 'Protokol byl úspěšně načten!' },
  places: { en: 'Active collection places successfully fetched', cs: 'Aktivní svozová místa byla úspěšně načtena' },

  deliveriesMissing: {
    en: 'The body must contain a non-empty list "deliveries".',
    cs: 'Tělo musí obsahovat neprázdný seznam „deliveries“.',
  },
  tooMany: { en: 'At most {max} shipments per request.', cs: 'Nejvýše {max} zásilek v jednom požadavku.' },
  licenceLimit: {
    en: 'The licence limit of {limit} shipments is reached; {count} exist and {requested} more were requested.',
    cs: 'Byl dosažen limit licence {limit} zásilek; existuje {count} a požadováno je dalších {requested}.',
  },
  noneFound: { en: 'No deliveries found', cs: 'Žádné zásilky nebyly nalezeny' },
  deliveryNotFound: { en: 'Delivery {deliveryId} not found', cs: 'Zásilka {deliveryId} nebyla nalezena' },
  deliveryForbidden: {
    en: 'Delivery {deliveryId} belongs to another company',
    cs: 'Zásilka {deliveryId} patří jiné firmě',
  },
  deliveryIdInvalid: { en: 'deliveryId must be a positive whole number', cs: 'deliveryId musí být kladné celé číslo' },
  deliveryIdDuplicate: {
    en: 'The shipment {deliveryId} is listed more than once',
    cs: 'Zásilka {deliveryId} je uvedena vícekrát',
  },
  closedMustBeTrue: { en: 'closed must be true', cs: 'closed musí být true' },
  preconditionFailed: {
    en: 'The shipments changed since the ETag given in If-Match; nothing was edited. Read them again.',
    cs: 'Zásilky se od ETagu v If-Match změnily; nic nebylo upraveno. Načtěte je znovu.',
  },
  notFoundToCancel: { en: 'Delivery not found', cs: 'Zásilka nebyla nalezena' },
  deliveryIdRequired: { en: 'deliveryId is required', cs: 'deliveryId je povinné' },
  searchInvalid: { en: 'The search parameters are not valid', cs: 'Parametry vyhledávání nejsou platné' },
  carrierRejected: { en: 'The carrier rejected the shipments', cs: 'Dopravce zásilky odmítl' },
} satisfies Record<string, Msg>;

export const routeMessages2 = {
  deliveryIdQueryRequired: {
    en: 'The query parameter deliveryId (comma-separated shipment ids) is required.',
    cs: 'Parametr dotazu deliveryId (čárkou oddělená čísla zásilek) je povinný.',
  },
  deliveryIdQueryInvalid: { en: '"{value}" is not a shipment id.', cs: '„{value}“ není číslo zásilky.' },
  notClosed: {
    en: 'Shipment {deliveryId} is not closed; this is available only for closed shipments.',
    cs: 'Zásilka {deliveryId} není uzavřená; toto je k dispozici jen pro uzavřené zásilky.',
  },
  methodOverride: {
    en: 'POST here needs the header X-HTTP-Method-Override: GET.',
    cs: 'POST zde vyžaduje hlavičku X-HTTP-Method-Override: GET.',
  },
} satisfies Record<string, Msg>;
