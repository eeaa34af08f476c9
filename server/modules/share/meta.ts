import { escapeHtml } from '../../lib/html';
import type { Campaign } from '@shared/schemas/campaign';
import type { Progress } from '@shared/schemas/progress';
import { campaignText, progressSummary } from '@shared/share';
import { SHARE_IMAGE_HEIGHT, SHARE_IMAGE_WIDTH, shareKey, type ShareFacts } from './share-image';

/** Where client/index.html takes the share tags (inside <head>). */
export const SHARE_META_PLACEHOLDER = '<!--share-meta-->';
export const SHARE_IMAGE_PATH = '/api/share/og.png';

/** What the share image shows, from the campaign and the current progress. */
export function shareFacts(campaign: Campaign, progress: Progress, baseUrl: string): ShareFacts {
  return {
    campaignName: campaign.name,
    tagline: campaign.tagline,
    eyebrow: campaign.eyebrow,
    currentAmount: progress.currentAmount,
    goalAmount: progress.goalAmount,
    donorCount: progress.donorCount,
    host: new URL(baseUrl).host,
  };
}

/**
 * Open Graph and Twitter card tags for the home, and its canonical address. They carry the live
 * numbers (the page is rebuilt on every change), and the image's URL changes with them
 * (`?v=`), so a network that caches images by URL still shows the numbers of the day of sharing.
 */
export function shareMetaTags(campaign: Campaign, progress: Progress, baseUrl: string): string {
  const home = `${baseUrl}/`;
  const image = `${baseUrl}${SHARE_IMAGE_PATH}?v=${shareKey(shareFacts(campaign, progress, baseUrl))}`;
  const summary = progressSummary(progress.currentAmount, progress.goalAmount);
  const description = `${campaign.tagline}. ${summary}. ${campaignText(campaign.shareDescription, campaign)}`;
  const alt = `${campaign.name}: ${summary}`;
  const tags: [string, string, string][] = [
    ['property', 'og:type', 'website'],
    ['property', 'og:site_name', campaign.name],
    ['property', 'og:title', campaign.name],
    ['property', 'og:description', description],
    ['property', 'og:url', home],
    ['property', 'og:image', image],
    ['property', 'og:image:type', 'image/png'],
    ['property', 'og:image:width', String(SHARE_IMAGE_WIDTH)],
    ['property', 'og:image:height', String(SHARE_IMAGE_HEIGHT)],
    ['property', 'og:image:alt', alt],
    ['name', 'twitter:card', 'summary_large_image'],
    ['name', 'twitter:title', campaign.name],
    ['name', 'twitter:description', description],
    ['name', 'twitter:image', image],
    ['name', 'twitter:image:alt', alt],
  ];
  return [
    `<link rel="canonical" href="${escapeHtml(home)}" />`,
    ...tags.map(([attr, key, value]) => `<meta ${attr}="${key}" content="${escapeHtml(value)}" />`),
  ].join('\n    ');
}
