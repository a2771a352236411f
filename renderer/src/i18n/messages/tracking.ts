/** Texts of the Tracking screen. */
import { defineMessages } from '../defineMessages';

export const tracking = defineMessages({
  en: {
    'tracking.title': 'Tracking',
    'tracking.input': 'ID, order, carrier number or barcode',
    'tracking.add': 'Add',
    'tracking.refresh': 'Refresh traces',
    'tracking.clear': 'Clear',
    'tracking.remove': 'Remove',
    'tracking.empty': 'Scan or type a shipment, or select shipments on the Shipments screen and press Tracking.',
    'tracking.loading': 'Asking the service…',
    'tracking.lastChecked': 'carrier checked {time}',
    'tracking.neverChecked': 'not checked by the carrier yet',
    'tracking.noTraces': 'No traces yet: the carrier has not picked the parcel up.',
    'tracking.notFound': 'No shipment has the code {code}.',
    'tracking.lookupFailed': '{code}: {message}',
    'tracking.col.date': 'When',
    'tracking.col.text': 'What happened',
    'tracking.shipment': 'Shipment {id}',
    'tracking.refreshedAt': 'Refreshed {time}',
  },
  cs: {
    'tracking.title': 'Sledování',
    'tracking.input': 'ID, objednávka, číslo dopravce, čárový kód',
    'tracking.add': 'Přidat',
    'tracking.refresh': 'Obnovit sledování',
    'tracking.clear': 'Vyprázdnit',
    'tracking.remove': 'Odebrat',
    'tracking.empty':
      'Naskenujte nebo napište zásilku, nebo vyberte zásilky na obrazovce Zásilky a stiskněte Sledování.',
    'tracking.loading': 'Ptám se služby…',
    'tracking.lastChecked': 'u dopravce ověřeno {time}',
    'tracking.neverChecked': 'u dopravce zatím neověřeno',
    'tracking.noTraces': 'Zatím žádné záznamy: dopravce zásilku ještě nepřevzal.',
    'tracking.notFound': 'Kód {code} nemá žádná zásilka.',
    'tracking.lookupFailed': '{code}: {message}',
    'tracking.col.date': 'Kdy',
    'tracking.col.text': 'Co se stalo',
    'tracking.shipment': 'Zásilka {id}',
    'tracking.refreshedAt': 'Obnoveno {time}',
  },
});
