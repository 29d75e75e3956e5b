/**
 * H5: an allowed page opens as a normal page in the browser (WeChat's in-app browser included);
 * the browser's back returns to the app. Many sites refuse to be framed, so no iframe.
 */
export function openAsPage(url: string): boolean {
  window.location.assign(url)
  return true
}
