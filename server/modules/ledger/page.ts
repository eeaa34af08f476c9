import { CURRENCIES } from '@shared/constants';
import { formatDeliveryDate, formatMinor, formatNumber } from '@shared/format';
import { escapeHtml } from '../../lib/html';
import { plainPage } from '../../lib/plain-page';
import type { Ledger } from './service';

const LEDGER_TITLE = 'Where the money goes';

/** The page's HTML: three stages, the weeks, the deliveries, the running totals. */
export function ledgerPage(
  ledger: Ledger,
  opts: { siteName: string; pledged: number; received: number },
): string {
  const { weeks, deliveries, totals } = ledger;
  const money = CURRENCIES.filter((c) => totals.receivedMinor[c] > 0)
    .map((c) => formatMinor(totals.receivedMinor[c], c))
    .join(' and ');
  const stages = `<ul class="stages" aria-label="Pledged, received, delivered">
<li>Pledged<strong>${formatNumber(opts.pledged)}</strong>containers</li>
<li>Received<strong>${formatNumber(opts.received)}</strong>containers paid for</li>
<li>Delivered<strong>${formatNumber(totals.delivered)}</strong>containers</li>
</ul>`;
  const weekRows = weeks
    .map(
      (w) => `<tr><th scope="row">Week of ${escapeHtml(formatDeliveryDate(w.week))}</th>
<td class="num">${formatMinor(w.receivedMinor.USD, 'USD')}</td>
<td class="num">${formatMinor(w.receivedMinor.JMD, 'JMD')}</td>
<td class="num">${formatNumber(w.containersReceived)}</td>
<td class="num">${formatNumber(w.containersDelivered)}</td>
<td class="num">${formatNumber(w.totalReceived)}</td>
<td class="num">${formatNumber(w.totalDelivered)}</td></tr>`,
    )
    .join('\n');
  const weekTable = weeks.length
    ? `<div class="table-scroll"><table>
<caption class="sr-only">Money received and containers delivered, week by week</caption>
<thead><tr><th scope="col">Week</th><th scope="col" class="num">Received in US$</th><th scope="col" class="num">Received in J$</th><th scope="col" class="num">Containers paid for</th><th scope="col" class="num">Containers delivered</th><th scope="col" class="num">Total paid for</th><th scope="col" class="num">Total delivered</th></tr></thead>
<tbody>
${weekRows}
</tbody></table></div>`
    : '<p>No money has been received yet.</p>';
  const deliveryItems = deliveries
    .map(
      (
        d,
      ) => `<li><img src="${escapeHtml(d.imageUrl)}" alt="Delivery to ${escapeHtml(d.recipient)}" loading="lazy"${d.width && d.height ? ` width="${d.width}" height="${d.height}"` : ''}>
<div><p><strong>${escapeHtml(d.recipient)}</strong></p>
<p>${formatNumber(d.containerCount)} containers, delivered on <time datetime="${escapeHtml(d.deliveryDate)}">${escapeHtml(formatDeliveryDate(d.deliveryDate))}</time></p></div></li>`,
    )
    .join('\n');
  const body = `<h1>${LEDGER_TITLE}</h1>
<p>Every pledge is paid by bank transfer to the charity, and every container bought with it is delivered to a kitchen, shelter or clinic. This page adds it up: ${money ? `${escapeHtml(money)} received so far` : 'no money received yet'}, ${formatNumber(totals.delivered)} containers delivered.</p>
${stages}
<h2>Money received, week by week</h2>
<p>By the bank's booking date. Containers paid for: each currency's amount at the campaign's price (US$0.11 or J$16.72 a container).</p>
${weekTable}
<h2>Deliveries</h2>
${deliveries.length ? `<ol class="deliveries">\n${deliveryItems}\n</ol>` : '<p>No deliveries yet: the first containers go out as the money arrives.</p>'}`;
  return plainPage({ title: LEDGER_TITLE, siteName: opts.siteName, body });
}
