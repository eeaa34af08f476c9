/**
 * The donor's own new pledge, handed from the pledge dialog to the thank-you page: its payment
 * reference and its number of containers (for the share message). Kept in sessionStorage (this
 * tab only, gone when it closes) so a reload of the thank-you page still shows them; they never
 * leave the browser again, except the containers in a message the donor chooses to share.
 */
const KEY = 'lastPledgeReference';
const CONTAINERS_KEY = 'lastPledgeContainers';

const memory = new Map<string, string>();

function remember(key: string, value: string): void {
  try {
    window.sessionStorage.setItem(key, value);
  } catch {
    // Storage refused (private mode): the page still shows it until the next reload.
    memory.set(key, value);
  }
}

function recall(key: string): string | null {
  try {
    return window.sessionStorage.getItem(key) ?? memory.get(key) ?? null;
  } catch {
    return memory.get(key) ?? null;
  }
}

export function rememberPledgeReference(reference: string): void {
  remember(KEY, reference);
}

export function lastPledgeReference(): string | null {
  return recall(KEY);
}

export function rememberPledgeContainers(containers: number): void {
  remember(CONTAINERS_KEY, String(containers));
}

export function lastPledgeContainers(): number | null {
  const n = Number(recall(CONTAINERS_KEY));
  return Number.isInteger(n) && n > 0 ? n : null;
}

const AMOUNT_KEY = 'lastPledgeAmount';

/** The amount to transfer, shown on the thank-you page and in its downloaded file. */
export function rememberPledgeAmount(amount: number, currency: 'USD' | 'JMD'): void {
  remember(AMOUNT_KEY, `${amount} ${currency}`);
}

export function lastPledgeAmount(): { amountMinor: number; currency: 'USD' | 'JMD' } | null {
  const m = /^(\d+) (USD|JMD)$/.exec(recall(AMOUNT_KEY) ?? '');
  return m ? { amountMinor: Number(m[1]) * 100, currency: m[2] as 'USD' | 'JMD' } : null;
}
