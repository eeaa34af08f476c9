import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll } from 'vitest';
import campaign from '../../../config/campaign.json';
import { createPledge } from '../../../tests/support/api';
import { describe, expect, test } from '../../../tests/support/fixtures';
import { sleep } from '../../../tests/support/net';
import { SHARE_IMAGE_PATH } from './meta';
import { renderShareImage, type ShareFacts } from './share-image';

const PUBLIC_URL = 'https://relief.example.org';
// A name that needs escaping in HTML, in Pango markup and in String.replace ("$'").
const NAME = `Meals & "Hope" <Jamaica> $' Fund`;
const tmp = mkdtempSync(path.join(os.tmpdir(), 'relief-share-'));
const campaignFile = path.join(tmp, 'campaign.json');
writeFileSync(campaignFile, JSON.stringify({ ...campaign, name: NAME }));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

test.override('appOptions', {
  env: { PUBLIC_URL, CAMPAIGN_CONFIG: campaignFile, RATE_LIMIT_PLEDGES_PER_MINUTE: '0' },
});

/** content of <meta property|name="key"> in the page. */
function meta(html: string, key: string): string | undefined {
  const m = new RegExp(`<meta (?:property|name)="${key}" content="([^"]*)"`).exec(html);
  return m?.[1]
    ?.replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

describe('share tags on the home', () => {
  test('Open Graph and Twitter card tags with the live numbers, on the PUBLIC_URL', async ({
    app,
  }) => {
    const html = await (await app.request('/')).text();
    expect(html).toContain(`<link rel="canonical" href="${PUBLIC_URL}/" />`);
    expect(meta(html, 'og:url')).toBe(`${PUBLIC_URL}/`);
    expect(meta(html, 'og:title')).toBe(NAME);
    expect(meta(html, 'og:type')).toBe('website');
    expect(meta(html, 'twitter:card')).toBe('summary_large_image');
    expect(meta(html, 'og:image:width')).toBe('1200');
    expect(meta(html, 'og:image:height')).toBe('630');
    const image = meta(html, 'og:image')!;
    expect(image).toMatch(new RegExp(`^${PUBLIC_URL}${SHARE_IMAGE_PATH}\\?v=[\\w-]{16}$`));
    expect(meta(html, 'twitter:image')).toBe(image);
    const progress = await (await app.request('/api/progress')).json();
    expect(meta(html, 'og:description')).toContain(
      `${progress.currentAmount.toLocaleString('en-US')} of 500,000 meal containers pledged`,
    );
    // The name is escaped: no raw markup from the config reaches the page.
    expect(html).not.toContain('<Jamaica>');
  });

  test('the numbers and the image address follow a pledge', async ({ app, pledge }) => {
    const before = await (await app.request('/')).text();
    await pledge({ amount: 1100 });
    const after = await (await app.request('/')).text();
    expect(meta(after, 'og:image')).not.toBe(meta(before, 'og:image'));
    expect(meta(after, 'og:description')).not.toBe(meta(before, 'og:description'));
  });

  test('a donor name with "$\'" in it does not corrupt the page', async ({ app }) => {
    await createPledge(app, { name: `Dollar $' Sign $& Co` });
    const html = await (await app.request('/')).text();
    const json = /<script type="application\/json" id="initial-data">(.*?)<\/script>/s.exec(html);
    const data = JSON.parse(json![1]!) as { pledges: { name: string }[] };
    expect(data.pledges[0]!.name).toBe(`Dollar $' Sign $& Co`);
    expect(html.match(/<!--share-meta-->|<!--initial-data-->/g)).toBeNull();
  });
});

describe(`GET ${SHARE_IMAGE_PATH}`, () => {
  test('a 1200×630 PNG under 100 KB, with an ETag that answers 304', async ({ app }) => {
    const res = await app.request(SHARE_IMAGE_PATH);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    const body = Buffer.from(await res.arrayBuffer());
    expect(body.length).toBeLessThanOrEqual(100 * 1024);
    const { width, height, format } = await sharp(body).metadata();
    expect({ width, height, format }).toEqual({ width: 1200, height: 630, format: 'png' });

    const etag = res.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]{16}"$/);
    const again = await app.request(`${SHARE_IMAGE_PATH}?v=anything`, {
      headers: { 'if-none-match': `W/${etag}` },
    });
    expect(again.status).toBe(304);
    expect((await again.arrayBuffer()).byteLength).toBe(0);
  });

  test('is drawn again after the progress changes, at most every 5 seconds', async ({ app }) => {
    const first = await app.request(SHARE_IMAGE_PATH);
    const etag = first.headers.get('etag');
    const bytes = Buffer.from(await first.arrayBuffer());
    await createPledge(app, { amount: 5000 });
    // The page's image address already changed; the picture follows once the interval is over.
    await sleep(5100);
    const next = await app.request(SHARE_IMAGE_PATH);
    expect(next.headers.get('etag')).not.toBe(etag);
    expect(Buffer.from(await next.arrayBuffer()).equals(bytes)).toBe(false);
  });
});

describe('the share image', () => {
  const facts: ShareFacts = {
    campaignName: NAME,
    tagline: campaign.tagline,
    eyebrow: campaign.eyebrow,
    currentAmount: 123_456,
    goalAmount: 500_000,
    donorCount: 1234,
    host: 'relief.example.org',
  };

  test('is drawn with the bundled font: identical on a machine without any font', async () => {
    const here = await sharp(await renderShareImage(facts))
      .raw()
      .toBuffer();
    // A child process whose fontconfig knows no font at all, as in the slim production image.
    const conf = path.join(tmp, 'fonts.conf');
    writeFileSync(
      conf,
      `<?xml version="1.0"?><fontconfig><cachedir>${tmp}/fc</cachedir></fontconfig>`,
    );
    const out = path.join(tmp, 'bare.png');
    const script = `import { renderShareImage } from ${JSON.stringify(path.resolve('server/modules/share/share-image.ts'))};
      import { writeFileSync } from 'node:fs';
      writeFileSync(${JSON.stringify(out)}, await renderShareImage(${JSON.stringify(facts)}));`;
    execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      env: { ...process.env, FONTCONFIG_FILE: conf, FONTCONFIG_PATH: tmp },
      stdio: 'pipe',
    });
    const bare = await sharp(readFileSync(out)).raw().toBuffer();
    expect(bare.equals(here)).toBe(true);
  });

  test('differs when the numbers differ', async () => {
    const a = await renderShareImage(facts);
    const b = await renderShareImage({ ...facts, currentAmount: 123_457 });
    expect(a.equals(b)).toBe(false);
  });
});
