/**
 * The one form of the station's CSV exports (the statistics, the audit trail), so a spreadsheet
 * opens every file of a desk alike. English: fields separated by a comma, a decimal point. Czech: a
 * semicolon and a decimal comma, which is what Excel with Czech regional settings splits on and
 * reads as a number (a comma there is the decimal mark, so it cannot separate fields). UTF-8 with
 * a byte order mark, so Excel reads names with diacritics right; Windows line ends.
 *
 * No cell is read as a formula: a text that a spreadsheet would take for one (it begins with `=`,
 * `+`, `-`, `@`, a tab, a carriage return or a line feed: OWASP "CSV Injection") gets a leading
 * apostrophe, which Excel and LibreOffice show as the text itself. Names, notes, codes and the
 * page's header words can come from anyone (a worker's name, a reprint's words, a recipient the
 * e-shop typed, a scanned code), so every text cell is written this way, not chosen columns.
 */
import { stringify } from 'csv-stringify/sync';

export type CsvLanguage = 'en' | 'cs';

/** A decimal written in the language's form: "2.418" stays in English, is "2,418" in Czech. */
export function csvDecimal(text: string, language: CsvLanguage): string {
  return language === 'cs' ? text.replace('.', ',') : text;
}

const FORMULA_START = /^[=+\-@\t\r\n]/;
/** A plain number written as text ("-2,5" in Czech) is a number to a spreadsheet, never a formula. */
const PLAIN_NUMBER = /^-?\d+([.,]\d+)?$/;

/** A text cell as a spreadsheet must read it: as text, never as a formula. */
function inertCell(cell: string | number): string | number {
  if (typeof cell === 'number' || !FORMULA_START.test(cell) || PLAIN_NUMBER.test(cell)) return cell;
  return `'${cell}`;
}

/** The rows (the header rows first) as the file's text. */
export function csvFile(rows: readonly (readonly (string | number)[])[], language: CsvLanguage): string {
  return (
    '\uFEFF' +
    stringify(
      rows.map((r) => r.map(inertCell)),
      { delimiter: language === 'cs' ? ';' : ',', record_delimiter: 'windows' },
    )
  );
}
