/**
 * Label and protocol documents of the sandbox: pure generators (no HTTP, no storage). The routes
 * (tickets, ZPL, collection protocols) build the data from stored shipments and call these.
 * Bad input throws a DocumentError { code, field, message }.
 */
export { type LabelData, type LabelParty, DocumentError, type DocumentErrorCode, checkLabel } from './labelData';
export { renderLabelsPdf, slotOf, type PrintFormat, type LabelPosition } from './pdfLabels';
export { renderZplLabel, ZPL_SIZES, type ZplSize } from './zplLabels';
export { renderProtocolPdf, checkProtocol, type ProtocolData, type ProtocolRow } from './protocolPdf';
