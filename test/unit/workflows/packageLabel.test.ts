/**
 * Choosing one package's label among a parcel's ZPL labels (spec "Label, trace, protocol and place
 * records", ZPL item: `zplCodes`, one label per package of the shipment): the label carrying the
 * package's barcode, else the one in the package's place; a number the parcel has not, or labels
 * not one per package, are refused. Also how a package job's label reference reads back.
 */
import { describe, expect, it } from 'vitest';
import { choosePackageLabel } from '../../../electron/workflows/packageLabel';
import { documentOf, packageLabelRef, packageOfLabelRef } from '../../../electron/store/printJobsRepo';

const label = (barcode: string, recipient = 'Jiří Šťastný') =>
  `^XA^FO50,50^FDPříjemce: ${recipient}^FS^FO50,200^BCN,120^FD${barcode}^FS^XZ`;

describe('choosing one package’s label', () => {
  const packages = [{ barcode: 'NP1001CZ' }, { barcode: 'NP1002CZ' }, { barcode: 'NP1003CZ' }];

  it('package 2 of 3: the label with its barcode, even when the labels come in another order', () => {
    const inOrder = packages.map((p) => label(p.barcode));
    expect(choosePackageLabel(inOrder, packages, 2)).toEqual({ ok: true, zpl: label('NP1002CZ') });
    const shuffled = [label('NP1003CZ'), label('NP1001CZ'), label('NP1002CZ')];
    expect(choosePackageLabel(shuffled, packages, 1)).toEqual({ ok: true, zpl: label('NP1001CZ') });
  });

  it('packages without barcodes: the label in the package’s place', () => {
    const plain = [{ barcode: null }, { barcode: null }, { barcode: null }];
    const zpl = ['^XA^FDprvní^XZ', '^XA^FDdruhý^XZ', '^XA^FDtřetí^XZ'];
    expect(choosePackageLabel(zpl, plain, 3)).toEqual({ ok: true, zpl: '^XA^FDtřetí^XZ' });
  });

  it('a barcode found on two labels says nothing: the place decides', () => {
    const zpl = [label('NP1001CZ'), `${label('NP1002CZ')}^FDNP1001CZ^FS`, label('NP1003CZ')];
    expect(choosePackageLabel(zpl, packages, 1)).toEqual({ ok: true, zpl: zpl[0] });
  });

  it('a package the parcel has not, or 0: refused', () => {
    const zpl = packages.map((p) => label(p.barcode));
    expect(choosePackageLabel(zpl, packages, 4)).toMatchObject({ ok: false, error: { code: 'package_not_in_parcel' } });
    expect(choosePackageLabel(zpl, packages, 0)).toMatchObject({ ok: false, error: { code: 'package_not_in_parcel' } });
  });

  it('fewer labels than packages: no telling which is whose, refused', () => {
    const zpl = [label('NP1001CZ'), label('NP1002CZ')];
    expect(choosePackageLabel(zpl, packages, 1)).toMatchObject({
      ok: false,
      error: { code: 'package_label_not_separate' },
    });
  });

  it('a package job’s reference names its package; a parcel’s labels name none', () => {
    expect(packageOfLabelRef(packageLabelRef(4711, 2, 3))).toEqual({ number: 2, of: 3 });
    expect(documentOf(packageLabelRef(4711, 2, 3), [4711])).toEqual({ kind: 'labels', package: { number: 2, of: 3 } });
    expect(packageOfLabelRef('zpl:4711')).toBeNull();
    expect(documentOf('zpl:4711', [4711])).toEqual({ kind: 'labels' });
  });
});
