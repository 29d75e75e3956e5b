/**
 * Opening an allowed web page outside the app's pages. The mini-program shows it in its own
 * <web-view> (the page component does), so there is nothing to do here; H5 (web-page.h5.ts)
 * navigates the browser to it, as a normal page.
 */
export function openAsPage(_url: string): boolean {
  return false
}
