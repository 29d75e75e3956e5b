/*
 * Saving a downloaded file under a name the person will recognise. H5: a link with `download` on
 * the file's blob: URL (what Taro's downloadFile answers in the browser), clicked once. The
 * mini-program has no files to hand over (the operators' pages that download are H5 only), so it
 * answers false.
 */
export function saveDownloadedFile(tempFilePath: string, fileName: string): boolean {
  if (process.env.TARO_ENV !== 'h5' || typeof document === 'undefined') return false
  const link = document.createElement('a')
  link.href = tempFilePath
  link.download = fileName
  link.rel = 'noopener'
  link.style.display = 'none'
  document.body.appendChild(link)
  link.click()
  link.remove()
  // The browser has taken the file once the click is handled; the blob is not needed after that.
  if (tempFilePath.startsWith('blob:') && typeof URL !== 'undefined' && URL.revokeObjectURL) {
    setTimeout(() => URL.revokeObjectURL(tempFilePath), 60_000)
  }
  return true
}
