/**
 * The command sheet: an A4 PDF with one Code 128 per desk command (shared/scan/deskCodes.ts), its
 * name and the key it stands for in the UI language, to print and pin beside the desk. A scanner
 * reads the codes like any parcel's; the station acts on each as its key would.
 *
 * As the demo pick list: the module is 1.5 pt and every symbol starts on a multiple of 3 pt, so the
 * on-screen preview at 96 dpi shows each module as exactly 2 pixels (scannable from the screen too).
 * Each code has the full line width below its name: the longest command fits at 1.5 pt.
 */
import PDFDocument from 'pdfkit';
import { commandBarcode, deskCommands, type DeskCommand } from '../../shared/scan/deskCodes';
import { drawCode128 } from './code128Bars';
import { documentFonts } from './documentFonts';
import { pdfBuffer } from './pdfBuffer';

export type CommandSheetLanguage = 'en' | 'cs';

interface CommandText {
  name: string;
  /** The key the command stands for on the Station screen. */
  key: string;
  what: string;
}

const TEXTS: Record<
  CommandSheetLanguage,
  { title: string; intro: string; keyLabel: string; commands: Record<DeskCommand, CommandText> }
> = {
  en: {
    title: 'Command sheet',
    intro:
      'Scan a code to do what its key does, wherever the focus is on the station. The codes begin with !LS-, which no shipment code can begin with.',
    keyLabel: 'Key',
    commands: {
      reprint_last: {
        name: 'Reprint the last label',
        key: 'Ctrl+P',
        what: 'Prints the newest label of this desk again, after you say why; of several packages, ← → picks one package’s label.',
      },
      cancel_parcel: {
        name: 'Cancel the parcel in progress',
        key: 'Ctrl+Delete',
        what: 'Cancels the last scan’s labels still waiting in the print queue.',
      },
      batch_toggle: {
        name: 'Batch mode on / off',
        key: 'F5',
        what: 'Scans are collected, nothing is closed until Close all.',
      },
      close_all: {
        name: 'Close all (the batch)',
        key: 'Ctrl+Enter',
        what: 'Closes every collected parcel and prints their labels.',
      },
      sign_out: { name: 'Sign out', key: 'Sign out (top bar)', what: 'Signs the worker out of this desk.' },
      next_package: {
        name: 'Next package: skip weighing',
        key: 'F10',
        what: 'The parcel on the scale keeps its shipment’s weight.',
      },
      hold_missing_item: {
        name: 'Problem shelf: an item is missing',
        key: 'Ctrl+H, 1',
        what: 'The next parcel scanned is held, not closed: nothing goes to the service.',
      },
      hold_damaged: {
        name: 'Problem shelf: damaged',
        key: 'Ctrl+H, 2',
        what: 'The next parcel scanned is held, not closed: nothing goes to the service.',
      },
      hold_wrong_address: {
        name: 'Problem shelf: wrong address',
        key: 'Ctrl+H, 3',
        what: 'The next parcel scanned is held, not closed: nothing goes to the service.',
      },
      hold_other: {
        name: 'Problem shelf: another reason',
        key: 'Ctrl+H, 4',
        what: 'Type a few words, then scan the parcel: it is held, not closed.',
      },
      packages_open: {
        name: 'Packages: open the next parcel',
        key: 'Ctrl+B',
        what: 'The next parcel scanned is not closed: its packages open to add, split, remove or weigh boxes.',
      },
      package_add: { name: 'Packages: add a box', key: 'Insert', what: 'One more package, weighed next.' },
      package_remove: { name: 'Packages: remove the chosen box', key: 'Delete', what: 'A parcel keeps at least one.' },
      package_weigh: {
        name: 'Packages: weigh the chosen box',
        key: 'Space',
        what: 'The settled weight on the scale goes to the chosen box; the next box is chosen.',
      },
      packages_split: {
        name: 'Packages: split into boxes',
        key: 'Ctrl+S, 2–9, Enter',
        what: 'Type how many boxes, then Enter: each is weighed in turn.',
      },
      packages_send: {
        name: 'Packages: send, close and print',
        key: 'Ctrl+Enter',
        what: 'Checks the carrier still takes it, updates the shipment, closes it: one label per box.',
      },
    },
  },
  cs: {
    title: 'Arch příkazových kódů',
    intro:
      'Naskenujte kód a stanice udělá totéž co jeho klávesa, ať je kurzor kdekoli. Kódy začínají !LS-, čímž nemůže začínat žádný kód zásilky.',
    keyLabel: 'Klávesa',
    commands: {
      reprint_last: {
        name: 'Vytisknout poslední štítek znovu',
        key: 'Ctrl+P',
        what: 'Vytiskne znovu nejnovější štítek tohoto stolu, jakmile uvedete důvod; u více balíků vybere ← → štítek jednoho balíku.',
      },
      cancel_parcel: {
        name: 'Zrušit rozpracovanou zásilku',
        key: 'Ctrl+Delete',
        what: 'Zruší štítky posledního skenu, které ještě čekají v tiskové frontě.',
      },
      batch_toggle: {
        name: 'Hromadný režim zapnout / vypnout',
        key: 'F5',
        what: 'Skeny se sbírají, nic se neuzavře do „Uzavřít vše“.',
      },
      close_all: {
        name: 'Uzavřít vše (dávku)',
        key: 'Ctrl+Enter',
        what: 'Uzavře všechny sebrané zásilky a vytiskne jejich štítky.',
      },
      sign_out: { name: 'Odhlásit se', key: 'Odhlásit (horní lišta)', what: 'Odhlásí pracovníka od tohoto stolu.' },
      next_package: {
        name: 'Další balík: přeskočit vážení',
        key: 'F10',
        what: 'Zásilka na váze si ponechá svou hmotnost.',
      },
      hold_missing_item: {
        name: 'Police problémů: chybí zboží',
        key: 'Ctrl+H, 1',
        what: 'Další naskenovaná zásilka se odloží, neuzavře: službě se nic neodešle.',
      },
      hold_damaged: {
        name: 'Police problémů: poškozeno',
        key: 'Ctrl+H, 2',
        what: 'Další naskenovaná zásilka se odloží, neuzavře: službě se nic neodešle.',
      },
      hold_wrong_address: {
        name: 'Police problémů: chybná adresa',
        key: 'Ctrl+H, 3',
        what: 'Další naskenovaná zásilka se odloží, neuzavře: službě se nic neodešle.',
      },
      hold_other: {
        name: 'Police problémů: jiný důvod',
        key: 'Ctrl+H, 4',
        what: 'Napište pár slov a naskenujte zásilku: odloží se, neuzavře.',
      },
      packages_open: {
        name: 'Balíky: otevřít další zásilku',
        key: 'Ctrl+B',
        what: 'Další naskenovaná zásilka se neuzavře: otevřou se její balíky k přidání, rozdělení, odebrání či vážení.',
      },
      package_add: { name: 'Balíky: přidat balík', key: 'Insert', what: 'Ještě jeden balík, zváží se hned potom.' },
      package_remove: {
        name: 'Balíky: odebrat vybraný balík',
        key: 'Delete',
        what: 'Zásilka si ponechá aspoň jeden.',
      },
      package_weigh: {
        name: 'Balíky: zvážit vybraný balík',
        key: 'Mezerník',
        what: 'Ustálená hmotnost z váhy patří vybranému balíku; vybere se další.',
      },
      packages_split: {
        name: 'Balíky: rozdělit na balíky',
        key: 'Ctrl+S, 2–9, Enter',
        what: 'Napište počet balíků a Enter: každý se pak zváží zvlášť.',
      },
      packages_send: {
        name: 'Balíky: odeslat, uzavřít a vytisknout',
        key: 'Ctrl+Enter',
        what: 'Ověří, že dopravce zásilku vezme, upraví ji ve službě a uzavře: štítek na každý balík.',
      },
    },
  },
};

/** The commands' names and keys as the sheet prints them (the renderer's catalogue has its own copy for the screen). */
export const commandSheetTexts = TEXTS;

const PAGE: [number, number] = [595.28, 841.89];
/** Multiples of 3 pt: whole pixels at 96 dpi. */
const LEFT = 42;
const TOP = 42;
const MODULE_PT = 1.5;
const BAR_H = 48;
const ROW_H = 111;
const WIDTH = PAGE[0] - 2 * LEFT;
const FONT = 'DejaVu';
const BOLD = 'DejaVu-Bold';

const drawBarcode = (doc: PDFKit.PDFDocument, code: string, x: number, y: number) =>
  drawCode128(doc, code, { x, y }, { module: MODULE_PT, height: BAR_H, font: FONT });

export async function renderCommandSheetPdf(opts: { language: CommandSheetLanguage; created: Date }): Promise<Buffer> {
  const tx = TEXTS[opts.language];
  const doc = new PDFDocument({
    size: PAGE,
    margin: 0,
    info: { Title: tx.title, Creator: 'Label Station', CreationDate: opts.created },
  });
  const fonts = documentFonts();
  doc.registerFont(FONT, fonts.regular);
  doc.registerFont(BOLD, fonts.bold);

  doc.font(BOLD).fontSize(18).fillColor('black').text(tx.title, LEFT, TOP, { lineBreak: false });
  doc
    .font(FONT)
    .fontSize(9.5)
    .text(tx.intro, LEFT, TOP + 27, { width: WIDTH });
  let y = Math.ceil((doc.y + 12) / 3) * 3;
  for (const c of deskCommands) {
    const t = tx.commands[c];
    // A row never breaks across pages: the sheet goes on on a second one.
    if (y + ROW_H > PAGE[1] - TOP) {
      doc.addPage({ size: PAGE, margin: 0 });
      y = TOP;
    }
    doc
      .font(BOLD)
      .fontSize(13)
      .fillColor('black')
      .text(t.name, LEFT, y, { width: WIDTH * 0.62, lineBreak: false });
    doc
      .font(FONT)
      .fontSize(11)
      .text(`${tx.keyLabel}: ${t.key}`, LEFT + WIDTH * 0.62, y + 1, {
        width: WIDTH * 0.38,
        align: 'right',
        lineBreak: false,
      });
    doc
      .fontSize(9)
      .fillColor('#444444')
      .text(t.what, LEFT, y + 18, { width: WIDTH, lineBreak: false, ellipsis: true });
    drawBarcode(doc, commandBarcode(c), LEFT, y + 33);
    doc
      .save()
      .lineWidth(0.5)
      .strokeColor('#999999')
      .moveTo(LEFT, y + ROW_H - 6)
      .lineTo(PAGE[0] - LEFT, y + ROW_H - 6)
      .stroke()
      .restore();
    y += ROW_H;
  }
  return pdfBuffer(doc);
}
