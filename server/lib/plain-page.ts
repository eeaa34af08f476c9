import { SERVER_PAGE_PATHS } from '@shared/pages';
import { escapeHtml } from './html';

/**
 * A page rendered on the server as plain HTML, without the client app ("Where the money
 * goes", the privacy notice). No script at all: fast and whole with JavaScript off. Its few styles
 * are inline, so it needs nothing the client build made.
 */
const STYLE = `
:root{color-scheme:light;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1c2b22;background:#f7faf8}
body{margin:0;line-height:1.55}
a{color:#14532d}
header,footer{background:#14532d;color:#fff}
header a,footer a{color:#fff}
.wrap{max-width:60rem;margin:0 auto;padding:1rem 1.25rem}
header .wrap{display:flex;justify-content:space-between;align-items:center;gap:1rem;flex-wrap:wrap}
header .site{font-weight:800;font-size:1.1rem;text-decoration:none}
main h1{font-size:2rem;margin:1.5rem 0 .5rem}
main h2{font-size:1.35rem;margin:2rem 0 .5rem}
table{border-collapse:collapse;width:100%;background:#fff;font-variant-numeric:tabular-nums}
th,td{border:1px solid #d5e3da;padding:.45rem .6rem;text-align:left;vertical-align:top}
th{background:#e8f2ec}
td.num,th.num{text-align:right}
.stages{display:grid;grid-template-columns:repeat(auto-fit,minmax(11rem,1fr));gap:.75rem;list-style:none;padding:0}
.stages li{background:#fff;border:1px solid #d5e3da;border-radius:.75rem;padding:.75rem 1rem}
.stages strong{display:block;font-size:1.6rem}
.deliveries{list-style:none;padding:0;display:grid;gap:1rem}
.deliveries li{background:#fff;border:1px solid #d5e3da;border-radius:.75rem;padding:.75rem;display:grid;grid-template-columns:minmax(0,10rem) 1fr;gap:1rem;align-items:start}
.deliveries img{width:100%;height:auto;border-radius:.5rem}
.table-scroll{overflow-x:auto}
footer{margin-top:3rem}
.sr-only{position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0,0,0,0);white-space:nowrap;border:0}
footer ul{list-style:none;padding:0;display:flex;gap:1.25rem;flex-wrap:wrap}
`;

export function plainPage(opts: { title: string; siteName: string; body: string }): string {
  const { title, siteName, body } = opts;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} — ${escapeHtml(siteName)}</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<style>${STYLE}</style>
</head>
<body>
<header><div class="wrap"><a class="site" href="/">${escapeHtml(siteName)}</a><a href="/">Back to the campaign</a></div></header>
<main class="wrap">
${body}
</main>
<footer><div class="wrap"><nav aria-label="About this campaign"><ul>
<li><a href="/">Home</a></li>
<li><a href="${SERVER_PAGE_PATHS.whereTheMoneyGoes}">Where the money goes</a></li>
<li><a href="${SERVER_PAGE_PATHS.privacy}">Privacy notice</a></li>
</ul></nav></div></footer>
</body>
</html>`;
}
