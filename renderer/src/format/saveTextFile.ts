/**
 * Saves a file the page made or the core sent (text, or bytes given as base64) the way both hosts allow: a Blob URL clicked as a download link. Chromium
 * (the web host) downloads it, Electron asks where to save it (its default for a download); the
 * page's CSP has no directive for downloads, and a blob: URL is the page's own origin.
 */
export function saveTextFile(fileName: string, text: string, type: string): void {
  saveBlob(fileName, new Blob([text], { type }));
}

/** A file the core sent as base64 (a PDF). */
export function saveBase64File(fileName: string, base64: string, type: string): void {
  const bin = atob(base64);
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  saveBlob(fileName, new Blob([bytes], { type }));
}

function saveBlob(fileName: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.append(a);
  a.click();
  a.remove();
  // The download has taken the blob by the next turn; the URL is not needed after it.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
