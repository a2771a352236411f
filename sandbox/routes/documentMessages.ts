/** Messages of the label, ZPL and collection protocol resources (spec "GET .../tickets", "GET .../zpl", "collection-protocols"). */
import type { Msg } from '../i18n';

export const documentMessages = {
  positionInvalid: {
    en: 'position must be 1, 2, 3 or 4 (where the first label goes on the A4 sheet), not "{value}".',
    cs: 'position musí být 1, 2, 3 nebo 4 (kam na list A4 přijde první štítek), ne „{value}“.',
  },
  printFormatInvalid: {
    en: 'printFormat must be "default" (A4 sheets) or "single" (label-sized pages), not "{value}".',
    cs: 'printFormat musí být „default“ (listy A4) nebo „single“ (stránky velikosti štítku), ne „{value}“.',
  },
  backShipment: {
    en: 'Shipment {deliveryId} is a back shipment (back_delivery): the carrier brings its label to the sender, so no label is printed here.',
    cs: 'Zásilka {deliveryId} je zpětná zásilka (back_delivery): štítek přiveze dopravce odesílateli, zde se netiskne.',
  },
  oneCarrier: {
    en: 'Shipment {deliveryId} is for carrier {agent}, but this request is for {first}: ask for the labels of one carrier per request.',
    cs: 'Zásilka {deliveryId} je pro dopravce {agent}, ale tento požadavek je pro {first}: žádejte štítky jednoho dopravce v jednom požadavku.',
  },
  labelsFailed: {
    en: 'The labels could not be generated: {detail}',
    cs: 'Štítky se nepodařilo vytvořit: {detail}',
  },
  zplNotFoundDetail: {
    en: 'ZPL label not found: carrier {agent} (shipment {deliveryId}) has PDF labels only; use GET /api/v3/deliveries/tickets.',
    cs: 'ZPL štítek nebyl nalezen: dopravce {agent} (zásilka {deliveryId}) má jen PDF štítky; použijte GET /api/v3/deliveries/tickets.',
  },
  sizeUnknown: {
    en: 'size must be one of 10x5, 10x15, 10x17 (cm at 300 dpi), not "{value}".',
    cs: 'size musí být jedna z hodnot 10x5, 10x15, 10x17 (cm při 300 dpi), ne „{value}“.',
  },
  sizeNotAllowed: {
    en: 'Carrier {agent} prints ZPL labels in {allowed} only, not {value}.',
    cs: 'Dopravce {agent} tiskne ZPL štítky jen ve velikosti {allowed}, ne {value}.',
  },

  protocolBodyInvalid: {
    en: 'The body must be an object with "agent" (carrier code) and "collectionPlace" (collection place identifier).',
    cs: 'Tělo musí být objekt s „agent“ (kód dopravce) a „collectionPlace“ (identifikátor svozového místa).',
  },
  agentRequired: { en: 'agent (the carrier code) is required', cs: 'agent (kód dopravce) je povinný' },
  agentUnknown: { en: 'Unknown carrier "{value}"', cs: 'Neznámý dopravce „{value}“' },
  placeRequired: {
    en: 'collectionPlace (the collection place identifier) is required',
    cs: 'collectionPlace (identifikátor svozového místa) je povinné',
  },
  placeUnknown: { en: 'Your company has no collection place "{value}"', cs: 'Vaše firma nemá svozové místo „{value}“' },
  nothingToHandOver: {
    en: 'There are no closed, unsent shipments of {agent} at {collectionPlace} without a protocol.',
    cs: 'Nejsou žádné uzavřené, neodeslané zásilky dopravce {agent} na místě {collectionPlace} bez protokolu.',
  },
  protocolIdRequired: {
    en: 'The query parameter collectionProtocolId (one protocol id) is required.',
    cs: 'Parametr dotazu collectionProtocolId (číslo jednoho protokolu) je povinný.',
  },
  protocolIdInvalid: {
    en: 'collectionProtocolId must be one positive whole number, not "{value}".',
    cs: 'collectionProtocolId musí být jedno kladné celé číslo, ne „{value}“.',
  },
  protocolNotFound: { en: 'Collection protocol {id} does not exist', cs: 'Svozový protokol {id} neexistuje' },
  protocolForbidden: {
    en: 'Collection protocol {id} belongs to another company',
    cs: 'Svozový protokol {id} patří jiné firmě',
  },
  protocolFailed: {
    en: 'The protocol could not be generated: {detail}',
    cs: 'Protokol se nepodařilo vytvořit: {detail}',
  },
} satisfies Record<string, Msg>;
