/**
 * The one form of the station's CSV exports (the statistics, the audit trail), so a spreadsheet
 * opens every file of a desk alike. English: fields separated by a comma, a decimal point. Czech: a
 * semicolon and a decimal comma, which is what Excel with Czech regional settings splits on and
 * reads as a number (a comma there is the decimal mark, so it cannot separate fields). UTF-8 with
 * a byte order mark, so Excel reads names with diacritics right; Windows line ends.
 */
import { stringify } from 'csv-stringify/sync';

export type CsvLanguage = 'en' | 'cs';

/** A decimal written in the language's form: "2.418" stays in English, is "2,418" in Czech. */
export function csvDecimal(text: string, language: CsvLanguage): string {
  return language === 'cs' ? text.replace('.', ',') : text;
}

/** The rows (the header rows first) as the file's text. */
export function csvFile(rows: readonly (readonly (string | number)[])[], language: CsvLanguage): string {
  return (
    '\uFEFF' +
    stringify(rows as (string | number)[][], { delimiter: language === 'cs' ? ';' : ',', record_delimiter: 'windows' })
  );
}
