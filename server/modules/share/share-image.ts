import { createHash } from 'node:crypto';
import path from 'node:path';
import type { OverlayOptions } from 'sharp';
import { goalOrDefault, percentComplete } from '@shared/containers';
import { formatNumber } from '@shared/format';
import { PROJECT_ROOT } from '../../config';
import { loadSharp } from '../../storage/load-sharp';
import { escapeHtml } from '../../lib/html';

export const SHARE_IMAGE_WIDTH = 1200;
export const SHARE_IMAGE_HEIGHT = 630;

/**
 * The text is drawn with these files, never with the machine's fonts: the production image
 * (node:*-bookworm-slim) has no fonts at all, and SVG text there comes out as empty boxes.
 */
const FONT_DIR = path.join(PROJECT_ROOT, 'server', 'assets', 'fonts');
const FONTS = {
  bold: { file: path.join(FONT_DIR, 'Inter-Bold.otf'), name: 'Inter Bold' },
  regular: { file: path.join(FONT_DIR, 'Inter-Regular.otf'), name: 'Inter' },
};

/** The campaign palette (client/styles.css). */
const COLOR = {
  brand800: '#075c31',
  brand700: '#05703a',
  brand900: '#063d22',
  brand50: '#ecfdf3',
  brand200: '#a6f4c5',
  sun300: '#ffe066',
  sun400: '#fed100',
  white: '#ffffff',
};

/** What the image shows; equal facts, equal image. */
export interface ShareFacts {
  campaignName: string;
  /** Shown under the name when there is room. */
  tagline: string;
  /** The small line above the name (campaign.json's `eyebrow`), in capitals. */
  eyebrow: string;
  currentAmount: number;
  goalAmount: number;
  donorCount: number;
  /** The site's host name, printed in a corner (from PUBLIC_URL), if known. */
  host?: string;
}

/** A short, stable key of the facts: the image's ETag and the `?v=` of its URL in the page. */
export function shareKey(facts: ShareFacts): string {
  return createHash('sha256').update(JSON.stringify(facts)).digest('base64url').slice(0, 16);
}

const MARGIN = 64;
const INNER = SHARE_IMAGE_WIDTH - 2 * MARGIN;

/** One run of text as a transparent PNG, at most `width` wide (wrapped), and its size. */
async function text(
  content: string,
  opts: { font: keyof typeof FONTS; size: number; color: string; width?: number; spacing?: number },
) {
  const font = FONTS[opts.font];
  const spacing = opts.spacing ? ` letter_spacing="${Math.round(opts.spacing * 1024)}"` : '';
  const sharp = await loadSharp();
  const { data, info } = await sharp({
    text: {
      text: `<span foreground="${opts.color}"${spacing}>${escapeHtml(content)}</span>`,
      font: `${font.name} ${opts.size}`,
      fontfile: font.file,
      width: opts.width ?? INNER,
      // 72 dpi: a font size in points is the same number of pixels.
      dpi: 72,
      rgba: true,
      wrap: 'word',
      spacing: Math.round(opts.size * 0.12),
    },
  })
    .png()
    .toBuffer({ resolveWithObject: true });
  return { input: data, width: info.width, height: info.height };
}

/** The campaign's name in at most two lines: smaller type for a long name, then cut at a word. */
async function campaignName(name: string, maxHeight: number) {
  for (const size of [64, 54, 46]) {
    const rendered = await text(name, { font: 'bold', size, color: COLOR.white });
    if (rendered.height <= maxHeight) return rendered;
  }
  const words = name.split(/\s+/);
  for (let n = words.length - 1; n > 0; n--) {
    const rendered = await text(`${words.slice(0, n).join(' ')}…`, {
      font: 'bold',
      size: 46,
      color: COLOR.white,
    });
    if (rendered.height <= maxHeight) return rendered;
  }
  return text('…', { font: 'bold', size: 46, color: COLOR.white });
}

/**
 * The 1200×630 picture that social networks show with a link to the home: the campaign's name,
 * the containers pledged against the goal with a bar, and the donors. Drawn as an SVG of shapes
 * (background, bar) with the text rendered by Pango from the bundled font and laid on top.
 * A palette PNG of flat colours: 20–40 KB.
 */
export async function renderShareImage(facts: ShareFacts): Promise<Buffer> {
  const goal = goalOrDefault(facts.goalAmount);
  const pct = percentComplete(facts.currentAmount, goal);
  const nameTop = 100;
  const amountBottom = 392;
  const barY = 428;
  const barH = 34;
  const belowBar = barY + barH + 26;
  const fill = Math.max(pct > 0 ? barH : 0, Math.round((INNER * pct) / 100));

  const background = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${SHARE_IMAGE_WIDTH}" height="${SHARE_IMAGE_HEIGHT}">
      <rect width="100%" height="100%" fill="${COLOR.brand800}"/>
      <circle cx="1130" cy="-60" r="380" fill="${COLOR.brand700}"/>
      <rect x="0" y="${SHARE_IMAGE_HEIGHT - 12}" width="100%" height="12" fill="${COLOR.sun400}"/>
      <rect x="${MARGIN}" y="${barY}" width="${INNER}" height="${barH}" rx="${barH / 2}" fill="${COLOR.brand900}"/>
      ${fill > 0 ? `<rect x="${MARGIN}" y="${barY}" width="${fill}" height="${barH}" rx="${barH / 2}" fill="${COLOR.sun400}"/>` : ''}
    </svg>`,
  );

  const donors =
    facts.donorCount > 0
      ? `${formatNumber(facts.donorCount)} donor${facts.donorCount === 1 ? '' : 's'} so far · Pledge today`
      : 'Be the first supporter · Pledge today';
  const [label, amount, pledged, percent, footer, host] = await Promise.all([
    text(facts.eyebrow.toUpperCase(), {
      font: 'bold',
      size: 26,
      color: COLOR.sun300,
      spacing: 3,
    }),
    text(formatNumber(Math.max(0, facts.currentAmount)), {
      font: 'bold',
      size: 84,
      color: COLOR.white,
    }),
    text(`of ${formatNumber(goal)} meal containers pledged`, {
      font: 'regular',
      size: 34,
      color: COLOR.brand50,
    }),
    text(`${pct.toFixed(1)}%`, { font: 'bold', size: 34, color: COLOR.sun300 }),
    text(donors, { font: 'regular', size: 30, color: COLOR.brand200 }),
    facts.host ? text(facts.host, { font: 'bold', size: 30, color: COLOR.white }) : undefined,
  ]);
  const amountTop = amountBottom - amount.height;
  const room = amountTop - nameTop - 8;
  const name = await campaignName(facts.campaignName, room);
  const tagline = await text(facts.tagline, { font: 'regular', size: 30, color: COLOR.brand50 });

  const layers: OverlayOptions[] = [
    { input: label.input, left: MARGIN, top: 56 },
    { input: name.input, left: MARGIN, top: nameTop },
    ...(name.height + 14 + tagline.height <= room
      ? [{ input: tagline.input, left: MARGIN, top: nameTop + name.height + 14 }]
      : []),
    { input: amount.input, left: MARGIN, top: amountTop },
    // On the number's baseline (the small text's descent is about a fifth of its height).
    {
      input: pledged.input,
      left: MARGIN + amount.width + 20,
      top: amountBottom - pledged.height - 12,
    },
    { input: percent.input, left: MARGIN, top: belowBar - 2 },
    { input: footer.input, left: MARGIN + percent.width + 28, top: belowBar },
  ];
  if (host)
    layers.push({
      input: host.input,
      left: SHARE_IMAGE_WIDTH - MARGIN - host.width,
      top: belowBar,
    });

  const sharp = await loadSharp();
  return sharp(background)
    .composite(layers)
    .png({ palette: true, quality: 90, effort: 7, compressionLevel: 9 })
    .toBuffer();
}
