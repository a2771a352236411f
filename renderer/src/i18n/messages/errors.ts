/**
 * The core's errors by code (electron/**: `new StationError(code, …)`, the RPC server's own codes,
 * the transport's `unavailable`, and the per-shipment codes of workflow results). The core
 * sends an English sentence too; a code listed here is shown in the UI language instead, with the
 * values the sentence named taken from the error's `details` (i18n/errors.ts picks the key).
 * A key `error.<code>.<variant>` is one of several sentences the core has for that code.
 *
 * Keyed by the registry (shared/errors/codes.ts `stationErrorCodes`): a `translated` code without
 * its sentence in English or Czech is a compile error that names it.
 */
import type { TranslatedErrorCode } from '../../../../shared/errors/codes';
import { defineMessages } from '../defineMessages';

/** Every translated code's sentence; besides them, variants (`error.<code>.<variant>`), field and "doing" texts. */
export type ErrorSentences = Record<`error.${TranslatedErrorCode}`, string>;

export const errors = defineMessages({
  en: {
    // The transport and the RPC server (renderer/src/rpc/transport.ts, electron/rpc/rpcServer.ts).
    'error.unavailable': 'The station is not connected. Try again in a moment.',
    'error.reply_lost':
      'The connection to the station was lost before it answered. Once it is back, check whether this was done.',
    'error.scan_not_received': 'This scan did not reach the station (the connection was lost). Scan the parcel again.',
    'error.unknown_method':
      'The station does not know this request (the page and the station may be of different versions). Reload the page.',
    'error.field.tooLong': 'At most {limit} characters.',
    'error.field.tooShort': 'At least {limit} characters.',
    'error.field.required': 'Fill this in.',
    'error.field.tooBig': 'At most {limit}.',
    'error.field.tooSmall': 'At least {limit}.',
    'error.field.format': 'This is not in the expected form.',
    'error.field.type': 'This is not a valid value.',
    'error.invalid_params': 'The station refused the request: some values are not valid.',
    'error.invalid_message': 'The station could not read the request.',
    'error.internal': 'The station failed to do this. The details are in its log.',
    'error.storage_failed': 'The station cannot write its data: {reason} ({code}).',
    'storage.kind.io': 'the disk reported an input/output error',
    'storage.kind.full': 'the disk is full',
    'storage.kind.gone': 'its data folder cannot be opened',
    'storage.kind.readonly': 'the disk is read-only',

    // Accounts and login (electron/auth).
    'error.account_invalid': 'The account details are not valid.',
    'error.account_invalid.url': '“{url}” is not a web address.',
    'error.account_invalid.scheme': 'The service address must start with https://.',
    'error.account_invalid.name': 'Give the account a name.',
    'error.account_invalid.credentials':
      'Both the client id and the client secret are needed (the service has no public clients).',
    'error.account_invalid.port': 'The redirect port must be a number from 1 to 65535.',
    'error.account_invalid.path': 'The redirect path must start with “/”.',
    'error.account_invalid.address': 'Enter the address of the {environment}.',
    'error.account_invalid.secret': 'Enter the client secret.',
    'error.account_not_found': 'There is no such account on this station.',
    'error.account_not_demo':
      'Only the demo company logs in without a password; log in to this company through the browser.',
    'error.account_no_url': 'The address of the {environment} is not set for “{name}”.',
    'error.account_no_secret': 'The client secret of “{name}” is not in the keychain. Enter it again.',
    'error.keychain_unavailable': 'The system keychain could not be used. Unlock the keychain and try again.',
    'error.login_invalid_token':
      'The service does not accept this refresh token. Check that it belongs to this client and environment.',
    'error.login_invalid_token.format': 'Paste the refresh token (one word, no spaces).',
    'error.login_access_denied': 'The permission was not granted.',
    'error.login_failed': 'The service refused the login ({error}).',
    'error.login_failed.noCode': 'The login answer carried no authorization code.',
    'error.login_exchange_failed': 'The login could not be completed: {reason}',
    'error.login_port_unavailable': 'The login could not open port {port} on 127.0.0.1.',
    'error.login_port_unavailable.inUse':
      'Port {port} on 127.0.0.1 is used by another program, so the login answer cannot be received. Close that program or choose another port (and register it with the service).',
    'error.login_timeout': 'The login was not finished within {seconds} s. Start it again.',
    'error.login_cancelled': 'The login was cancelled.',
    'error.login_browser_failed': 'The system browser could not be opened.',
    'error.login_required':
      'The station is not logged in to the service. Log in under Settings → Accounts, then try again.',
    'error.logged_out':
      'The station is not logged in to the service. Log in under Settings → Accounts, then try again.',
    'error.no_account': 'No account is set up. Add one under Settings → Accounts and log in.',
    'error.service_login_required': 'The saved login is no longer valid. Log in again under Settings → Accounts.',
    'error.service_auth':
      'The service refused the client id or client secret. Check the account under Settings → Accounts.',

    // The service, when the station could not get its answer (its own answers are shown as they are).
    'error.service_unreachable': 'The service did not answer. Check the connection and try again.',
    'error.service_network': 'The service cannot be reached: check the internet connection.',
    'error.service_timeout': 'The service did not answer in time.',
    'error.service_timeout.seconds': 'The service did not answer within {seconds} s.',
    'error.service_malformed': 'The service answered with something the station cannot read.',
    'error.service_http.status': 'The service answered with an error (HTTP {status}).',
    'error.doing.search': 'Transport search failed',
    'error.doing.save': 'Saving the shipment failed',
    'error.doing.read': 'Reading shipment {deliveryId} failed',
    'error.doing.saveEdit': 'Saving shipment {deliveryId} failed',

    // Print jobs and printers (electron/queue, electron/printing).
    'error.job_not_found': 'Print job {jobId} does not exist.',
    'error.job_not_cancellable':
      'Print job {jobId} cannot be cancelled any more: only waiting, failed, uncertain or unconfirmed jobs can.',
    'error.job_not_retryable': 'Print job {jobId} has not failed; only failed jobs can be retried.',
    'error.job_not_retryable.uncertain':
      'Print job {jobId} may have printed. Check the printer, then choose “Print again” or “It printed”.',
    'error.job_not_printable': 'Job {jobId} is a scan waiting to be closed; it has no labels to reprint yet.',
    'error.job_busy': 'Print job {jobId} is being printed right now. Wait for it to finish.',
    'error.labels_in_printer':
      'Its labels are in the printer right now: wait until they come out before printing them again.',
    'error.job_not_movable': 'Print job {jobId} cannot be moved: only a job still waiting for its printer can.',
    'error.job_not_uncertain':
      'Print job {jobId} is not uncertain; only an uncertain or unconfirmed job can be confirmed as printed.',
    'error.printer_not_found': 'No printer “{printerId}” is set up on this station.',
    'error.printer_not_found.routing': 'Label routing names printers that are not set up: {printerIds}.',
    'error.printer_format_mismatch':
      'The printer {printer} cannot print {format} labels. Pick another printer or format.',
    'error.printer_builtin': 'The virtual printers are built in and cannot be removed.',
    'error.printer_routed':
      'Label routing still prints on “{printerId}”. Change the routing before removing the printer.',
    'error.printer_not_virtual': 'Only the virtual printers keep what they received.',
    'error.printer_error': 'The printer did not print the label; it waits in the print queue.',
    'error.preview_unavailable': 'Job {jobId} has no label to show yet.',
    'error.preview_unavailable.no_pdftoppm': 'PDF previews need pdftoppm (poppler-utils) on this computer.',
    'error.preview_unavailable.render': 'The PDF could not be rendered for preview.',
    'error.no_protocol_printer':
      'No printer is set for collection protocols. Choose one under Settings → Label routing.',
    'error.protocol_made_elsewhere':
      'These parcels are already on a protocol made at another desk or in the web application, so nothing was created. They are no longer listed here.',
    'error.protocol_made_elsewhere.numbered':
      'These parcels are already on protocol {protocolIds}, made at another desk, so nothing was created. They are no longer listed here; that desk prints its protocol for the driver.',
    'error.no_office_printer':
      'No office printer is set. Choose one for collection protocols under Settings → Label routing.',
    'error.no_printer_route': 'No printer is set for this carrier. Choose one under Settings → Label routing.',
    'error.no_printer': 'No printer takes this format: add one under Settings.',
    'error.fonts_missing': 'The document fonts are missing from this installation. Reinstall the station.',

    // Shipments, batches, new shipments (electron/workflows, electron/sync).
    'error.batch_busy': 'The batch is being closed already.',
    'error.close_no_answer': 'Closing gave no result for this shipment.',
    'error.no_labels': 'No labels came for this shipment.',
    'error.unknown_state': 'The shipment is in a state the station does not know.',
    'error.scale_no_path': 'Not saved: a scale needs its port or device (for example /dev/ttyUSB0 or COM3).',
    'error.station_closing': 'The station closed while the scan waited for the scale; it is weighed after the restart.',
    'error.sync_stopped': 'The station closed during the sync; it goes on at the next start.',
    'error.not_closed': 'Not closed yet: labels and traces exist only for closed shipments.',
    'error.not_printed': 'Closed, but its labels were not printed: print them from the Shipments screen.',
    'error.no_traces': 'The service has no tracking events for this shipment yet.',
    'error.weight_held':
      'Held at the weight check: nothing was sent; scan the parcel again when its contents are checked.',
    'error.on_shelf': 'On the problem shelf: nothing was sent.',
    'error.parcel_held': 'Put on the problem shelf while it waited in line: nothing was sent.',
    'error.hold_in_flight':
      'This parcel cannot be held now: its scan is being worked on or its close is on its way to the service. Wait for its outcome.',
    'error.hold_closed': 'This parcel is closed already; its label is printed or on its way. It was not held.',
    'error.already_on_shelf': 'This parcel is on the problem shelf already.',
    'error.not_supervisor': 'Only a supervisor can release a parcel from the shelf. Sign in as a supervisor.',
    'error.hold_not_found': 'This parcel is no longer on the problem shelf.',
    'error.packages_not_prepared': 'This parcel is closed or cancelled: its packages can no longer change.',
    'error.packages_not_open': 'Open the parcel’s packages again (Ctrl+B, then scan it): nothing was sent.',
    'error.packages_invalid':
      'The packages are not complete yet: each needs its weight (and its sides where the carrier asks). Nothing was sent.',
    'error.transport_refuses':
      '{agent} {deliveryType} does not take the parcel with these packages (too heavy, too many or too big). Nothing was changed and nothing closed: change the packages or send it another way (Shipments, F2).',
    'error.transport_refuses.said':
      '{agent} {deliveryType} does not take the parcel with these packages: {serviceMessage} Nothing was changed and nothing closed: change the packages or send it another way (Shipments, F2).',
    'error.packages_changed':
      'Someone changed this shipment at the service while you edited its packages. Nothing was sent; your packages are kept. Check them and send again.',
    'error.scale_no_weight': 'The scale shows no settled weight: put the package on it and wait, or type its weight.',
    'error.reprint_refused': 'The labels could not be printed again: the service did not allow it.',
    'error.package_not_in_parcel': 'This parcel has no such package: its packages have changed. Open its detail again.',
    'error.package_label_not_separate':
      'This parcel’s labels come as one document for all its packages, so one package’s label cannot print alone. Reprint all its labels.',
    'error.already_closed': 'Already closed.',
    'error.cancelled': 'Cancelled.',
    'error.already_cancelled': 'Already cancelled.',
    'error.not_in_cache': 'Not known on this station: sync the shipments.',
    'error.closed_elsewhere': 'Closed elsewhere meanwhile.',
    'error.not_found': 'Shipment {deliveryId} was not found at the service.',
    'error.not_stored':
      'The station could not read shipment {deliveryId} from the service’s answer. Sync the shipments.',
    'error.insert_outcome_unknown':
      'The service did not answer the insert and the check failed too: the shipment may or may not exist. Look for it in Shipments (sync) before trying again.',
    'error.not_demo':
      'The demo pick list is only for the built-in sandbox. The active company uses a real service: scan its own orders instead.',
    'error.not_demo_account':
      'Only the demo company on the built-in sandbox can be reset. Make it the active company first.',
    'error.demo_reset_failed': 'The built-in sandbox did not reset. Try again; if it repeats, restart the station.',
    // Operators (ops)
    'error.sign_in_required':
      'Sign in first: this desk requires a sign-in before parcels are scanned, printed or cancelled. Scan your badge or choose your name at the top.',
    'error.desk_code_not_parcel':
      'This is a desk code (a badge or a command), not a parcel: it was not taken as a scan.',
    'error.badge_unknown': 'Unknown badge: no worker has it. Nobody was signed out.',
    'error.pin_wrong': 'Wrong PIN. Nobody was signed out.',
    'error.pin_locked': 'Too many wrong PINs: wait {seconds} s before you try again.',
    'error.operator_not_found': 'This worker is no longer registered at the station.',
    'error.operator_needs_badge_or_pin': 'Give the worker a badge or a PIN (or both): without one they cannot sign in.',
    'error.badge_taken': 'Another worker already has this badge.',
    'error.badge_is_desk_code': 'This code is one of the station’s command barcodes: it cannot be a badge.',
    // Retention (keep)
    'error.label_bytes_removed':
      'The label of print job {jobId} is no longer kept (Settings → Data kept). Reprint the shipment from Shipments: its labels are fetched again.',
    // Camera (camera)
    'error.photo_scan_unknown': 'The station has no scan {scanId}: the photo was not stored.',
    'error.photo_not_jpeg': 'The photo is not a JPEG picture: it was not stored.',
    'error.photo_too_large': 'The photo is larger than {maxBytes} bytes: it was not stored.',
    'error.photo_not_found': 'The photo’s file is no longer in the data folder.',
  },
  cs: {
    'error.unavailable': 'Stanice není připojena. Zkuste to za chvíli znovu.',
    'error.reply_lost':
      'Spojení se stanicí se přerušilo dřív, než odpověděla. Až bude zpět, zkontrolujte, zda se to provedlo.',
    'error.scan_not_received': 'Tento sken na stanici nedorazil (spojení se přerušilo). Naskenujte zásilku znovu.',
    'error.unknown_method':
      'Stanice tento požadavek nezná (stránka a stanice mohou být různých verzí). Načtěte stránku znovu.',
    'error.field.tooLong': 'Nejvýše {limit} znaků.',
    'error.field.tooShort': 'Alespoň {limit} znaků.',
    'error.field.required': 'Vyplňte toto pole.',
    'error.field.tooBig': 'Nejvýše {limit}.',
    'error.field.tooSmall': 'Nejméně {limit}.',
    'error.field.format': 'Hodnota nemá očekávaný tvar.',
    'error.field.type': 'Toto není platná hodnota.',
    'error.invalid_params': 'Stanice požadavek odmítla: některé hodnoty nejsou platné.',
    'error.invalid_message': 'Stanice požadavku nerozuměla.',
    'error.internal': 'Stanici se to nepodařilo. Podrobnosti jsou v jejím protokolu.',
    'error.storage_failed': 'Stanice nemůže zapisovat svá data: {reason} ({code}).',
    'storage.kind.io': 'disk ohlásil chybu vstupu/výstupu',
    'storage.kind.full': 'disk je plný',
    'storage.kind.gone': 'složku s daty nelze otevřít',
    'storage.kind.readonly': 'disk je jen pro čtení',

    'error.account_invalid': 'Údaje účtu nejsou platné.',
    'error.account_invalid.url': '„{url}“ není webová adresa.',
    'error.account_invalid.scheme': 'Adresa služby musí začínat https://.',
    'error.account_invalid.name': 'Zadejte název účtu.',
    'error.account_invalid.credentials': 'Je potřeba client ID i client secret (služba nemá veřejné klienty).',
    'error.account_invalid.port': 'Port pro přesměrování musí být číslo od 1 do 65535.',
    'error.account_invalid.path': 'Cesta pro přesměrování musí začínat znakem „/“.',
    'error.account_invalid.address': 'Zadejte adresu prostředí: {environment}.',
    'error.account_invalid.secret': 'Zadejte client secret.',
    'error.account_not_found': 'Takový účet na této stanici není.',
    'error.account_not_demo': 'Bez hesla se přihlašuje jen ukázková firma; k této firmě se přihlaste v prohlížeči.',
    'error.account_no_url': 'Účet „{name}“ nemá nastavenou adresu prostředí: {environment}.',
    'error.account_no_secret': 'Client secret účtu „{name}“ není v klíčence. Zadejte ho znovu.',
    'error.keychain_unavailable': 'Systémovou klíčenku nelze použít. Odemkněte ji a zkuste to znovu.',
    'error.login_invalid_token':
      'Služba tento obnovovací token nepřijala. Ověřte, že patří k tomuto klientovi a prostředí.',
    'error.login_invalid_token.format': 'Vložte obnovovací token (jedno slovo, bez mezer).',
    'error.login_access_denied': 'Oprávnění nebylo uděleno.',
    'error.login_failed': 'Služba přihlášení odmítla ({error}).',
    'error.login_failed.noCode': 'Odpověď přihlášení neobsahovala autorizační kód.',
    'error.login_exchange_failed': 'Přihlášení se nepodařilo dokončit: {reason}',
    'error.login_port_unavailable': 'Přihlášení nemohlo otevřít port {port} na 127.0.0.1.',
    'error.login_port_unavailable.inUse':
      'Port {port} na 127.0.0.1 používá jiný program, takže odpověď přihlášení nemůže dorazit. Zavřete ten program, nebo zvolte jiný port (a zaregistrujte ho u služby).',
    'error.login_timeout': 'Přihlášení nebylo dokončeno do {seconds} s. Začněte ho znovu.',
    'error.login_cancelled': 'Přihlášení bylo zrušeno.',
    'error.login_browser_failed': 'Systémový prohlížeč se nepodařilo otevřít.',
    'error.login_required': 'Stanice není přihlášena ke službě. Přihlaste se v Nastavení → Účty a zkuste to znovu.',
    'error.logged_out': 'Stanice není přihlášena ke službě. Přihlaste se v Nastavení → Účty a zkuste to znovu.',
    'error.no_account': 'Není nastaven žádný účet. Přidejte ho v Nastavení → Účty a přihlaste se.',
    'error.service_login_required': 'Uložené přihlášení už neplatí. Přihlaste se znovu v Nastavení → Účty.',
    'error.service_auth': 'Služba odmítla client ID nebo client secret. Zkontrolujte účet v Nastavení → Účty.',

    'error.service_unreachable': 'Služba neodpověděla. Zkontrolujte připojení a zkuste to znovu.',
    'error.service_network': 'Služba není dostupná: zkontrolujte připojení k internetu.',
    'error.service_timeout': 'Služba neodpověděla včas.',
    'error.service_timeout.seconds': 'Služba neodpověděla do {seconds} s.',
    'error.service_malformed': 'Služba odpověděla něčím, čemu stanice nerozumí.',
    'error.service_http.status': 'Služba odpověděla chybou (HTTP {status}).',
    'error.doing.search': 'Hledání přepravy selhalo',
    'error.doing.save': 'Uložení zásilky selhalo',
    'error.doing.read': 'Načtení zásilky {deliveryId} selhalo',
    'error.doing.saveEdit': 'Uložení zásilky {deliveryId} selhalo',

    'error.job_not_found': 'Tisková úloha {jobId} neexistuje.',
    'error.job_not_cancellable':
      'Tiskovou úlohu {jobId} už nelze zrušit: zrušit lze jen čekající, neúspěšné, nejisté nebo nepotvrzené úlohy.',
    'error.job_not_retryable': 'Tisková úloha {jobId} neselhala; znovu zkusit lze jen neúspěšné úlohy.',
    'error.job_not_retryable.uncertain':
      'Tisková úloha {jobId} se možná vytiskla. Podívejte se na tiskárnu a zvolte „Tisknout znovu“, nebo „Vytisklo se“.',
    'error.job_not_printable': 'Úloha {jobId} je sken čekající na uzavření; zatím nemá štítky k opětovnému tisku.',
    'error.job_busy': 'Tisková úloha {jobId} se právě tiskne. Počkejte, až doběhne.',
    'error.labels_in_printer':
      'Štítky této zásilky jsou právě v tiskárně: než je vytisknete znovu, počkejte, až vyjedou.',
    'error.job_not_movable':
      'Tiskovou úlohu {jobId} nelze přesunout: přesunout lze jen úlohu, která na tiskárnu ještě čeká.',
    'error.job_not_uncertain':
      'Tisková úloha {jobId} není nejistá; jako vytištěnou lze potvrdit jen nejistou nebo nepotvrzenou úlohu.',
    'error.printer_not_found': 'Tiskárna „{printerId}“ na této stanici není nastavená.',
    'error.printer_not_found.routing': 'Směrování štítků uvádí tiskárny, které nejsou nastavené: {printerIds}.',
    'error.printer_format_mismatch':
      'Tiskárna {printer} neumí tisknout štítky {format}. Zvolte jinou tiskárnu nebo formát.',
    'error.printer_builtin': 'Virtuální tiskárny jsou součástí stanice a nelze je odebrat.',
    'error.printer_routed': 'Směrování štítků stále tiskne na „{printerId}“. Před odebráním tiskárny směrování změňte.',
    'error.printer_not_virtual': 'Co přijaly, uchovávají jen virtuální tiskárny.',
    'error.printer_error': 'Tiskárna štítek nevytiskla; čeká v tiskové frontě.',
    'error.preview_unavailable': 'Úloha {jobId} zatím nemá štítek k zobrazení.',
    'error.preview_unavailable.no_pdftoppm': 'Náhled PDF potřebuje v počítači program pdftoppm (poppler-utils).',
    'error.preview_unavailable.render': 'PDF se pro náhled nepodařilo vykreslit.',
    'error.no_protocol_printer':
      'Pro předávací protokoly není nastavena tiskárna. Zvolte ji v Nastavení → Směrování štítků.',
    'error.protocol_made_elsewhere':
      'Tyto zásilky už jsou na protokolu vytvořeném na jiném stole nebo ve webové aplikaci, proto se nic nevytvořilo. Tady už nejsou v seznamu.',
    'error.protocol_made_elsewhere.numbered':
      'Tyto zásilky už jsou na protokolu {protocolIds} vytvořeném na jiném stole, proto se nic nevytvořilo. Tady už nejsou v seznamu; protokol pro řidiče tiskne ten stůl.',
    'error.no_office_printer':
      'Není nastavena kancelářská tiskárna. Zvolte ji pro předávací protokoly v Nastavení → Směrování štítků.',
    'error.no_printer_route': 'Pro tohoto dopravce není nastavena tiskárna. Zvolte ji v Nastavení → Směrování štítků.',
    'error.no_printer': 'Tento formát neumí žádná tiskárna: přidejte ji v Nastavení.',
    'error.fonts_missing': 'V této instalaci chybí písma dokumentů. Přeinstalujte stanici.',

    'error.batch_busy': 'Dávka se už uzavírá.',
    'error.close_no_answer': 'Uzavření této zásilky nevrátilo žádný výsledek.',
    'error.no_labels': 'K této zásilce nepřišly žádné štítky.',
    'error.unknown_state': 'Zásilka je ve stavu, který stanice nezná.',
    'error.scale_no_path': 'Neuloženo: váha potřebuje svůj port nebo zařízení (například /dev/ttyUSB0 nebo COM3).',
    'error.station_closing': 'Stanice se zavřela, zatímco sken čekal na váhu; zváží se po novém spuštění.',
    'error.sync_stopped': 'Stanice se během synchronizace zavřela; synchronizace pokračuje po novém spuštění.',
    'error.not_closed': 'Ještě není uzavřená: štítky a sledování existují jen pro uzavřené zásilky.',
    'error.not_printed': 'Uzavřeno, ale štítky se nevytiskly: vytiskněte je na obrazovce Zásilky.',
    'error.no_traces': 'Služba pro tuto zásilku zatím nemá žádné události sledování.',
    'error.weight_held':
      'Zadrženo při kontrole hmotnosti: nic nebylo odesláno; po kontrole obsahu zásilku naskenujte znovu.',
    'error.on_shelf': 'Na polici problémů: nic nebylo odesláno.',
    'error.parcel_held': 'Odloženo na polici problémů, zatímco čekalo ve frontě: nic nebylo odesláno.',
    'error.hold_in_flight':
      'Tuto zásilku teď nejde odložit: její sken se právě zpracovává nebo uzavření už míří ke službě. Počkejte na výsledek.',
    'error.hold_closed': 'Tato zásilka je už uzavřená; její štítek je vytištěný nebo na cestě. Odložena nebyla.',
    'error.already_on_shelf': 'Tato zásilka už na polici problémů je.',
    'error.not_supervisor': 'Zásilku z police může uvolnit jen vedoucí. Přihlaste se jako vedoucí.',
    'error.hold_not_found': 'Tato zásilka už na polici problémů není.',
    'error.packages_not_prepared': 'Tato zásilka je uzavřená nebo zrušená: její balíky už nelze měnit.',
    'error.packages_not_open': 'Otevřete balíky zásilky znovu (Ctrl+B a naskenujte ji): nic nebylo odesláno.',
    'error.packages_invalid':
      'Balíky ještě nejsou úplné: každý potřebuje hmotnost (a rozměry, kde je dopravce chce). Nic nebylo odesláno.',
    'error.transport_refuses':
      '{agent} {deliveryType} zásilku s těmito balíky nepřijme (příliš těžké, příliš mnoho nebo příliš velké). Nic se nezměnilo ani neuzavřelo: upravte balíky nebo ji pošlete jinak (Zásilky, F2).',
    'error.transport_refuses.said':
      '{agent} {deliveryType} zásilku s těmito balíky nepřijme: {serviceMessage} Nic se nezměnilo ani neuzavřelo: upravte balíky nebo ji pošlete jinak (Zásilky, F2).',
    'error.packages_changed':
      'Někdo mezitím tuto zásilku ve službě změnil. Nic nebylo odesláno, vaše balíky zůstaly. Zkontrolujte je a odešlete znovu.',
    'error.scale_no_weight':
      'Váha neukazuje ustálenou hmotnost: položte na ni balík a počkejte, nebo hmotnost napište.',
    'error.reprint_refused': 'Štítky nešlo vytisknout znovu: služba to nedovolila.',
    'error.package_not_in_parcel': 'Takový balík zásilka nemá: její balíky se změnily. Otevřete její detail znovu.',
    'error.package_label_not_separate':
      'Štítky této zásilky přicházejí jako jeden dokument pro všechny balíky, štítek jednoho balíku se tedy sám vytisknout nedá. Vytiskněte znovu všechny její štítky.',
    'error.already_closed': 'Už je uzavřená.',
    'error.cancelled': 'Je zrušená.',
    'error.already_cancelled': 'Už je zrušená.',
    'error.not_in_cache': 'Stanice ji nezná: synchronizujte zásilky.',
    'error.closed_elsewhere': 'Mezitím ji uzavřel někdo jiný.',
    'error.not_found': 'Zásilka {deliveryId} ve službě nebyla nalezena.',
    'error.not_stored': 'Stanice nedokázala z odpovědi služby načíst zásilku {deliveryId}. Synchronizujte zásilky.',
    'error.insert_outcome_unknown':
      'Služba na uložení neodpověděla a ani kontrola se nepodařila: zásilka možná existuje, možná ne. Než to zkusíte znovu, najděte ji v Zásilkách (synchronizace).',
    'error.not_demo':
      'Ukázkový seznam k vychystání je jen pro vestavěný sandbox. Aktivní firma používá skutečnou službu: skenujte její vlastní objednávky.',
    'error.not_demo_account':
      'Obnovit lze jen ukázkovou firmu na vestavěném sandboxu. Nejdřív ji nastavte jako aktivní.',
    'error.demo_reset_failed':
      'Vestavěný sandbox se nepodařilo obnovit. Zkuste to znovu; když se to opakuje, restartujte stanici.',
    // Operators (ops)
    'error.sign_in_required':
      'Nejdřív se přihlaste: tento stůl vyžaduje přihlášení, než se zásilky skenují, tisknou nebo ruší. Naskenujte svou kartu nebo nahoře vyberte své jméno.',
    'error.desk_code_not_parcel': 'Toto je kód stolu (karta nebo příkaz), ne zásilka: jako sken se nepřijal.',
    'error.badge_unknown': 'Neznámá karta: nemá ji žádný pracovník. Nikdo nebyl odhlášen.',
    'error.pin_wrong': 'Špatný PIN. Nikdo nebyl odhlášen.',
    'error.pin_locked': 'Příliš mnoho špatných PINů: před dalším pokusem počkejte {seconds} s.',
    'error.operator_not_found': 'Tento pracovník už ve stanici není zaregistrován.',
    'error.operator_needs_badge_or_pin': 'Dejte pracovníkovi kartu nebo PIN (nebo obojí): bez nich se nepřihlásí.',
    'error.badge_taken': 'Tuto kartu už má jiný pracovník.',
    'error.badge_is_desk_code': 'Tento kód je jeden z příkazových čárových kódů stanice: nemůže být kartou.',
    // Retention (keep)
    'error.label_bytes_removed':
      'Štítek tiskové úlohy {jobId} se už neuchovává (Nastavení → Uchovávání dat). Vytiskněte zásilku znovu ze Zásilek: štítky se stáhnou znovu.',
    // Camera (camera)
    'error.photo_scan_unknown': 'Stanice nezná sken {scanId}: fotografie nebyla uložena.',
    'error.photo_not_jpeg': 'Fotografie není obrázek JPEG: nebyla uložena.',
    'error.photo_too_large': 'Fotografie je větší než {maxBytes} bajtů: nebyla uložena.',
    'error.photo_not_found': 'Soubor fotografie už v datové složce není.',
  },
}) satisfies { en: ErrorSentences; cs: ErrorSentences };
