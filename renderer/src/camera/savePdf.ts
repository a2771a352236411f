/** Saves a PDF the core made (base64) as a download, as saveTextFile does for text: a Blob URL clicked as a link. */
export function savePdf(fileName: string, base64: string): void {
  const bin = atob(base64);
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  const url = URL.createObjectURL(new Blob([bytes], { type: 'application/pdf' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.append(a);
  a.click();
  a.remove();
  // The download has taken the blob by the next turn; the URL is not needed after it.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
