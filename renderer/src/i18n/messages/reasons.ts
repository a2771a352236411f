/**
 * Why a print job or a scan waits or failed, by the core's reason code (electron/printing,
 * electron/queue, electron/workflows). The core also sends an English sentence; a code
 * listed here is shown in the UI language instead, an unknown one with that sentence.
 *
 * Keyed by the registry (shared/errors/codes.ts `reasonCodes`: the printer's `printerReasonCodes`,
 * the printing contract's closed enum, and the scan's): a `translated` code without its sentence
 * here, or a sentence for a code the registry does not know, is a compile error
 * (test/unit/renderer/printerReasons.test.ts checks each printer code's text in both languages).
 */
import type { ReasonCode, TranslatedReasonCode } from '../../../../shared/errors/codes';
import { defineMessages } from '../defineMessages';

/** The sentences of the reason codes: every translated one, and nothing the registry does not know. */
export type ReasonSentences = Record<`reason.${TranslatedReasonCode}`, string> &
  Partial<Record<`reason.${ReasonCode}`, string>>;

export const reasons = defineMessages({
  en: {
    'reason.offline': 'The printer does not answer: is it switched on and connected?',
    'reason.timeout': 'The printer did not answer in time.',
    'reason.no_answer': 'The printer did not answer.',
    'reason.connection_lost': 'The printer dropped the connection while receiving the label: check whether it printed.',
    'reason.paper_out': 'The printer is out of labels: load a new roll.',
    'reason.head_open': 'The print head is open: close it.',
    'reason.paused': 'The printer is paused: press its pause button.',
    'reason.ribbon_out': 'The ribbon has run out: put in a new one.',
    'reason.buffer_full': 'The printer memory is full: wait a moment.',
    'reason.no_queue': 'This print queue does not exist on the computer (or the print service is not running).',
    'reason.queue_disabled': 'This print queue is stopped: resume it in the computer’s printer settings.',
    'reason.no_printer':
      'This printer is not set up on this station any more: add it in Settings, or reprint to another printer.',
    'reason.replaced_by_reprint': 'Replaced by a reprint.',
    'reason.confirmed_by_worker': 'You confirmed it printed.',
    'reason.cancelled_by_worker': 'Cancelled by you.',
    'reason.retry_by_worker': 'Sent again at your request.',
    'reason.interrupted_by_restart':
      'The station stopped while sending this label. Check the printer: reprint only if it did not print.',
    'reason.waiting_in_line': 'Earlier scans are waiting for the service; this one runs after them, in scan order.',
    'reason.login_required': 'The station is not logged in: the scan waits and runs in scan order once you log in.',
    'reason.account_changed':
      'This scan was made for another company; it was not closed. Scan it again in the right company.',
    'reason.replaced_by_new_print': 'Replaced by a new print of the same labels, so only one comes out.',
    'reason.moved_by_worker': 'Moved to another printer by you.',
    'reason.close_confirmed_by_search':
      'The answer to the close was lost; the service confirmed the shipment is closed.',
    'reason.held_closed_elsewhere':
      'Held: the parcel was found closed, and this desk cannot tell whether it closed it or another desk (or the web application) did and printed its label there. Look at the parcel: Print it prints the label if the parcel has none; Cancel if it has one.',
    'reason.service_network': 'The service cannot be reached: check the internet connection.',
    'reason.service_timeout': 'The service did not answer in time.',
    'reason.service_malformed': 'The service answered with something the station cannot read.',
    'reason.wrong_format': 'This printer does not take labels in this format: change the label routing in Settings.',
    'reason.spooler_missing': 'The computer’s print system is not installed or not running.',
    'reason.held_by_spooler': 'The computer’s print system still holds the label; it prints when the printer is back.',
    'reason.handed_to_spooler':
      'Handed to the computer’s print system, which passed it on; it does not say whether the label printed.',
    'reason.waiting_in_queue': 'Its labels wait in the print queue behind others and print in turn.',
    'reason.label_not_printed': 'The label is still in the printer’s memory: check the printer.',
    'reason.bad_status':
      'The printer does not answer the Zebra status query: turn off “Ask the printer for its status” for this printer in Settings.',
    'reason.spooler_incomplete':
      'The print system took only part of the label: check the printer before printing again.',
    'reason.not_confirmed':
      'The whole label was sent, but the printer did not confirm taking it: check whether it printed.',
    'reason.stopped_reading':
      'The printer took the connection but stopped reading the label: check whether it printed before printing again.',
    'reason.not_answering':
      'The printer takes connections but does not answer its status questions: check its display.',
    'reason.answer_flood':
      'The device on the printer’s port sent far more than any printer answer, so the station hung up: check that a label printer (ZPL) is on that address and port.',
    'reason.cutter_fault': 'The printer’s cutter has a fault: clear it.',
    'reason.head_too_hot': 'The print head is too hot: the printer goes on when it has cooled down.',
    'reason.motor_too_hot': 'The printer’s motor is too hot: the printer goes on when it has cooled down.',
    'reason.printer_error': 'The printer reports an error: check its display.',
    'reason.in_printer': 'In the printer; counted printed when the printer says it came out.',
    'reason.interrupted_in_printer':
      'The station stopped while this label was in the printer, before the printer said it came out. Check the printer: reprint only if it did not print.',
    'reason.confirmed_by_printer_counter': 'The printer’s label counter shows it printed.',
    'reason.service_unreachable': 'The service did not answer.',
    'reason.not_sent': 'The labels before it did not go through; nothing of this one was sent yet.',
    'reason.sent_before_restart': 'Sent to the printer before the station stopped.',
  },
  cs: {
    'reason.offline': 'Tiskárna neodpovídá: je zapnutá a připojená?',
    'reason.timeout': 'Tiskárna neodpověděla včas.',
    'reason.no_answer': 'Tiskárna neodpověděla.',
    'reason.connection_lost': 'Tiskárna přerušila spojení během příjmu štítku: ověřte, zda se vytiskl.',
    'reason.paper_out': 'V tiskárně došly štítky: vložte novou roli.',
    'reason.head_open': 'Tisková hlava je otevřená: zavřete ji.',
    'reason.paused': 'Tiskárna je pozastavená: stiskněte na ní tlačítko pauzy.',
    'reason.ribbon_out': 'Došla páska: vložte novou.',
    'reason.buffer_full': 'Paměť tiskárny je plná: chvíli počkejte.',
    'reason.no_queue': 'Tato tisková fronta v počítači neexistuje (nebo neběží tisková služba).',
    'reason.queue_disabled': 'Tato tisková fronta je zastavená: obnovte ji v nastavení tiskáren počítače.',
    'reason.no_printer':
      'Tato tiskárna už na stanici není nastavená: přidejte ji v Nastavení, nebo štítek vytiskněte jinde.',
    'reason.replaced_by_reprint': 'Nahrazeno opakovaným tiskem.',
    'reason.confirmed_by_worker': 'Potvrdili jste, že se vytisklo.',
    'reason.cancelled_by_worker': 'Zrušeno obsluhou.',
    'reason.retry_by_worker': 'Odesláno znovu na váš pokyn.',
    'reason.interrupted_by_restart':
      'Stanice se zastavila během odesílání štítku. Podívejte se na tiskárnu: tiskněte znovu, jen pokud se nevytiskl.',
    'reason.waiting_in_line': 'Dřívější skeny čekají na službu; tento přijde na řadu po nich, v pořadí skenování.',
    'reason.login_required': 'Stanice není přihlášena: sken čeká a po přihlášení přijde na řadu v pořadí skenování.',
    'reason.account_changed':
      'Tento sken patří jiné firmě; zásilka nebyla uzavřena. Naskenujte ji znovu ve správné firmě.',
    'reason.replaced_by_new_print': 'Nahrazeno novým tiskem týchž štítků, aby vyšel jen jeden.',
    'reason.moved_by_worker': 'Přesunuto na jinou tiskárnu na váš pokyn.',
    'reason.close_confirmed_by_search': 'Odpověď na uzavření se ztratila; služba potvrdila, že zásilka je uzavřená.',
    'reason.held_closed_elsewhere':
      'Podrženo: zásilka byla nalezena uzavřená a tento stůl nepozná, zda ji uzavřel on, nebo jiný stůl (či webová aplikace), který tam mohl vytisknout její štítek. Podívejte se na balík: Vytisknout štítek vytiskne, pokud balík žádný nemá; Zrušit, pokud ho má.',
    'reason.service_network': 'Služba není dostupná: zkontrolujte připojení k internetu.',
    'reason.service_timeout': 'Služba neodpověděla včas.',
    'reason.service_malformed': 'Služba odpověděla něčím, čemu stanice nerozumí.',
    'reason.wrong_format': 'Tato tiskárna štítky v tomto formátu nebere: změňte směrování štítků v Nastavení.',
    'reason.spooler_missing': 'Tiskový systém počítače není nainstalovaný nebo neběží.',
    'reason.held_by_spooler': 'Tiskový systém počítače štítek ještě drží; vytiskne se, až bude tiskárna zpět.',
    'reason.handed_to_spooler': 'Předáno tiskovému systému počítače, který štítek poslal dál; neříká, zda se vytiskl.',
    'reason.waiting_in_queue': 'Štítky čekají v tiskové frontě za jinými a vytisknou se, až na ně přijde řada.',
    'reason.label_not_printed': 'Štítek je stále v paměti tiskárny: zkontrolujte tiskárnu.',
    'reason.bad_status':
      'Tiskárna neodpovídá na stavový dotaz Zebra: vypněte jí v Nastavení „Zjišťovat stav tiskárny“.',
    'reason.spooler_incomplete': 'Tiskový systém převzal jen část štítku: před dalším tiskem zkontrolujte tiskárnu.',
    'reason.not_confirmed': 'Štítek odešel celý, ale tiskárna jeho převzetí nepotvrdila: ověřte, zda se vytiskl.',
    'reason.stopped_reading':
      'Tiskárna přijala spojení, ale přestala štítek číst: před dalším tiskem ověřte, zda se vytiskl.',
    'reason.not_answering': 'Tiskárna přijímá spojení, ale neodpovídá na dotazy na stav: podívejte se na její displej.',
    'reason.answer_flood':
      'Zařízení na portu tiskárny poslalo mnohem víc, než odpovídá kterákoli tiskárna, a stanice spojení ukončila: ověřte, že na té adrese a portu je tiskárna štítků (ZPL).',
    'reason.cutter_fault': 'Nůž tiskárny hlásí poruchu: uvolněte ho.',
    'reason.head_too_hot': 'Tisková hlava je přehřátá: tiskárna pokračuje, až vychladne.',
    'reason.motor_too_hot': 'Motor tiskárny je přehřátý: tiskárna pokračuje, až vychladne.',
    'reason.printer_error': 'Tiskárna hlásí chybu: podívejte se na její displej.',
    'reason.in_printer': 'V tiskárně; za vytištěný se počítá, až tiskárna ohlásí, že vyjel.',
    'reason.interrupted_in_printer':
      'Stanice se zastavila, když byl tento štítek v tiskárně a tiskárna ještě neohlásila, že vyjel. Zkontrolujte tiskárnu: tiskněte znovu, jen pokud se nevytiskl.',
    'reason.confirmed_by_printer_counter': 'Počítadlo štítků tiskárny ukazuje, že se vytiskl.',
    'reason.service_unreachable': 'Služba neodpověděla.',
    'reason.not_sent': 'Štítky před touto úlohou neprošly; z této se zatím nic neodeslalo.',
    'reason.sent_before_restart': 'Odesláno do tiskárny před zastavením stanice.',
  },
}) satisfies { en: ReasonSentences; cs: ReasonSentences };

/** A sentence for a code the registry does not know is a compile error that names it. */
type NotInRegistry = Exclude<keyof typeof reasons.en, `reason.${ReasonCode}`>;
const onlyRegistryCodes: [NotInRegistry] extends [never] ? true : { notInRegistry: NotInRegistry } = true;
void onlyRegistryCodes;
