/**
 * Saves text as a file the way both hosts allow: a Blob URL clicked as a download link. Chromium
 * (the web host) downloads it, Electron asks where to save it (its default for a download); the
 * page's CSP has no directive for downloads, and a blob: URL is the page's own origin.
 */
export function saveTextFile(fileName: string, text: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.append(a);
  a.click();
  a.remove();
  // The download has taken the blob by the next turn; the URL is not needed after it.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
