/**
 * The donor's own new pledge, handed from the pledge dialog to the thank-you page. Kept in
 * sessionStorage (this tab only, gone when it closes) so a reload of the thank-you page still
 * shows the payment reference; it never leaves the browser again.
 */
const KEY = 'lastPledgeReference';

export function rememberPledgeReference(reference: string): void {
  try {
    window.sessionStorage.setItem(KEY, reference);
  } catch {
    // Storage refused (private mode): the page still shows it until the next reload.
    memory = reference;
  }
}

let memory: string | null = null;

export function lastPledgeReference(): string | null {
  try {
    return window.sessionStorage.getItem(KEY) ?? memory;
  } catch {
    return memory;
  }
}
