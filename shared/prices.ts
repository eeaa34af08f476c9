/**
 * The campaign's prices, currencies' display and goal: campaign.json's `currencies` and `goal`
 * (shared/schemas/campaign.ts validates them; the defaults below are the schema's defaults).
 *
 * One site serves one campaign, so these are set once per JavaScript realm from the validated
 * config: by the server when it builds the app (server/app.ts), and by the page before it renders
 * or hydrates, on the server and in the browser alike (client/lib/initial-data.ts), from the same
 * embedded campaign, so both render the same prices. Every rule that uses a price (containers per
 * pledge, the exchange rate between the currencies, money's display) reads it here, so a
 * configured price changes all of them at once.
 */

export const CURRENCIES = ['USD', 'JMD'] as const;
export type Currency = (typeof CURRENCIES)[number];

export interface CurrencyDisplay {
  /** Written before every amount: "US$" in "US$1,250". */
  prefix: string;
  /** The price of one container, in cents of this currency. */
  unitPriceCents: number;
  /** The pledge dialog's example amount in this currency. */
  amountPlaceholder: string;
}

export interface CampaignPrices {
  currencies: Record<Currency, CurrencyDisplay>;
  /** The goal in containers until an owner sets another in the admin. */
  goal: number;
}

export const DEFAULT_CURRENCIES: Record<Currency, CurrencyDisplay> = {
  USD: { prefix: 'US$', unitPriceCents: 11, amountPlaceholder: '100' },
  JMD: { prefix: 'J$', unitPriceCents: 1672, amountPlaceholder: '15200' },
};
export const DEFAULT_GOAL = 500_000;

let current: CampaignPrices = { currencies: DEFAULT_CURRENCIES, goal: DEFAULT_GOAL };

/** Called with the validated campaign config before anything computes or shows a price. */
export function setCampaignPrices(prices: CampaignPrices): void {
  current = { currencies: prices.currencies, goal: prices.goal };
}

/** Cents of `currency` that buy one container. */
export function unitPriceCents(currency: Currency): number {
  return current.currencies[currency].unitPriceCents;
}

/** "US$" / "J$"; an unknown currency (a bad row) shows with the second currency's prefix. */
export function currencyPrefix(currency: Currency | string): string {
  return (current.currencies[currency as Currency] ?? current.currencies.JMD).prefix;
}

export function amountPlaceholder(currency: Currency): string {
  return current.currencies[currency].amountPlaceholder;
}

/** The configured goal: what the progress shows until an owner sets another. */
export function campaignGoal(): number {
  return current.goal;
}

/** "US$0.11 or J$16.72": the price of one container in each currency, as the page words it. */
export function unitPriceText(): string {
  return CURRENCIES.map((c) => `${currencyPrefix(c)}${(unitPriceCents(c) / 100).toFixed(2)}`).join(
    ' or ',
  );
}
