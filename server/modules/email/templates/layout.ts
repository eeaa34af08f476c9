import type { PaymentAccount } from '@shared/payment-text';
import type { Campaign } from '@shared/schemas/campaign';
import type { Currency } from '@shared/constants';
import { escapeHtml } from '../../../lib/html';

/** What a template gets: one pledge (the recipient's own, never anyone else's) and the campaign. */
export interface EmailData {
  campaign: Campaign;
  pledge: {
    name: string;
    amount: number;
    currency: Currency;
    containers: number;
    createdAt: Date;
    /** The payment reference (docs/decisions/012-payment-reference.md), when the pledge has one. */
    reference?: string | null;
    /** What arrived, when recorded: possibly less, or in the other currency. */
    amountReceived?: number | null;
    currencyReceived?: Currency | null;
    /** Still owed in the pledge's currency (a part payment). */
    outstandingAmount?: number;
    /** The same in cents (migration 0016): what arrived, still owed, received beyond the pledge. */
    amountReceivedMinor?: number | null;
    outstandingMinor?: number;
    overpaidMinor?: number;
    paymentConfirmedAt?: Date | null;
  };
  /** The donor's status page, absolute. */
  statusUrl: string;
}

export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
  /** Extra headers (the delivery news' List-Unsubscribe). */
  headers?: Record<string, string>;
}

/**
 * What the e-mails call the donor: the address is not verified, so anyone can
 * make the site mail anyone, and the name is the only text they choose. Only a first name goes in:
 * the first word, refused when it could be a link or an address (a dot, slash, colon or @), with
 * anything but letters, apostrophes and hyphens taken out, cut to 40 characters; else "donor".
 */
export function greetingName(name: string): string {
  const first = name.trim().split(/\s+/u)[0] ?? '';
  if (/[.:/\\@]|^www/iu.test(first)) return 'donor';
  const letters = first.replace(/[^\p{L}\p{M}'’-]/gu, '').replace(/^[-'’]+|[-'’]+$/gu, '');
  const cut = Array.from(letters).slice(0, 40).join('');
  return /\p{L}/u.test(cut) ? cut : 'donor';
}

/** A tagged template that escapes every interpolation unless it is already `Html`. */
export class Html {
  constructor(readonly value: string) {}
  toString() {
    return this.value;
  }
}
export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = strings[0]!;
  values.forEach((v, i) => {
    const part = Array.isArray(v) ? v.map((x) => piece(x)).join('') : piece(v);
    out += part + strings[i + 1]!;
  });
  return new Html(out);
}
function piece(v: unknown): string {
  if (v instanceof Html) return v.value;
  if (v === null || v === undefined || v === false) return '';
  return escapeHtml(String(v));
}

/** "November 23, 2026": the day in the campaign's time zone (campaign.json's `timeZone`). */
// One formatter per zone, made once: building an Intl.DateTimeFormat costs about half a
// millisecond, which was a sixth of the CPU of each message in a backlog of reminders.
const DAY_FORMATS = new Map<string, Intl.DateTimeFormat>();

export function formatDay(d: Date, timeZone: string): string {
  let format = DAY_FORMATS.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone });
    DAY_FORMATS.set(timeZone, format);
  }
  return format.format(d);
}

/** The simple HTML every message shares: readable in any client, no images, no remote content. */
export function page(campaign: Campaign, title: string, body: Html): string {
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${title}</title>
      </head>
      <body style="margin:0;padding:0;background:#f5f5f0;">
        <div
          style="max-width:600px;margin:0 auto;padding:24px 16px;font-family:Arial,Helvetica,sans-serif;font-size:16px;line-height:1.5;color:#1f2937;"
        >
          <p style="margin:0 0 16px;font-weight:bold;color:#166534;">${campaign.name}</p>
          ${body}
          <p style="margin:32px 0 0;font-size:13px;color:#4b5563;">
            ${campaign.footerDisclaimer.join(' ')}
          </p>
        </div>
      </body>
    </html> `.value;
}

export function detailsTable(rows: [string, string][]): Html {
  return html`<table
    role="presentation"
    style="border-collapse:collapse;width:100%;margin:8px 0 16px;"
  >
    ${rows.map(
      ([k, v]) =>
        html`<tr>
          <td style="padding:4px 12px 4px 0;color:#4b5563;vertical-align:top;white-space:nowrap;">
            ${k}
          </td>
          <td style="padding:4px 0;font-weight:bold;">${v}</td>
        </tr> `,
    )}
  </table>`;
}

/** A bank account's details in an e-mail: its rows, and its intermediary bank's if it has one. */
export function accountSection(a: PaymentAccount): Html {
  const head = html`<h2 style="font-size:18px;margin:24px 0 4px;">${a.title}</h2>
    ${detailsTable(a.rows)}`;
  return a.intermediary
    ? html`${head}
        <h3 style="font-size:15px;margin:8px 0 4px;">${a.intermediary.title}</h3>
        ${detailsTable(a.intermediary.rows)}`
    : head;
}

export function button(href: string, label: string): Html {
  return html`<p style="margin:24px 0;">
      <a
        href="${href}"
        style="display:inline-block;background:#166534;color:#ffffff;padding:12px 20px;border-radius:8px;text-decoration:none;font-weight:bold;"
        >${label}</a
      >
    </p>
    <p style="margin:0 0 16px;font-size:13px;color:#4b5563;">
      Or open this link: <a href="${href}" style="color:#166534;word-break:break-all;">${href}</a>
    </p>`;
}
