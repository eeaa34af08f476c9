import { Check, Link2, Share2 } from 'lucide-react';
import { useEffect, useState } from 'react';
import type { Campaign } from '@shared/schemas/campaign';
import { pledgeShareMessage } from '@shared/share';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';

/**
 * The address to share: the home's canonical URL, which the server puts in the page from
 * PUBLIC_URL; this page's own origin when it is missing (the development server).
 */
function campaignUrl(): string {
  const canonical = document.querySelector<HTMLLinkElement>('link[rel="canonical"]')?.href;
  return canonical || `${window.location.origin}/`;
}

/** The networks' own share pages, each prefilled with the message and the address. */
function shareLinks(message: string, url: string) {
  const e = encodeURIComponent;
  return [
    { name: 'WhatsApp', href: `https://wa.me/?text=${e(`${message} ${url}`)}` },
    { name: 'Facebook', href: `https://www.facebook.com/sharer/sharer.php?u=${e(url)}` },
    { name: 'X', href: `https://x.com/intent/post?text=${e(message)}&url=${e(url)}` },
  ];
}

/**
 * Phones get the system's share sheet (every app the donor uses); elsewhere, where that sheet is
 * missing or is a desktop dialog few people use, the three networks and "Copy link".
 */
function prefersNativeShare(): boolean {
  return typeof navigator.share === 'function' && window.matchMedia?.('(pointer: coarse)').matches;
}

/**
 * "Share" on the thank-you page. The message carries the containers of this donor's pledge and
 * the campaign's address, nothing else: no name, no money amount, no reference or status link.
 */
export function ShareCampaign({
  campaign,
  containers,
}: {
  campaign: Campaign;
  containers?: number | null;
}) {
  // Decided once mounted: a page rendered on the server knows no navigator.
  const [native, setNative] = useState(false);
  const [copied, setCopied] = useState(false);
  const [url, setUrl] = useState('');
  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- navigator and location are read after hydration: server and first client render must match
    setNative(prefersNativeShare());
    setUrl(campaignUrl());
  }, []);
  const message = pledgeShareMessage(campaign, containers);
  const link = url || '/';

  const share = async () => {
    try {
      await navigator.share({ title: campaign.name, text: message, url: link });
    } catch (err) {
      // Closing the sheet is not a failure; anything else: offer the buttons instead.
      if ((err as Error).name !== 'AbortError') setNative(false);
    }
  };
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link);
      setCopied(true);
      setTimeout(() => setCopied(false), 2500);
    } catch {
      setCopied(false);
    }
  };

  return (
    <section aria-labelledby="share-heading">
      <Card className="mt-8 p-5 text-center sm:p-6">
        <h2 id="share-heading" className="text-xl font-bold text-ink-900">
          Share the campaign
        </h2>
        <p className="mx-auto mt-1 max-w-xl text-ink-700">
          Every pledge you bring in means more meals. Tell your friends and family.
        </p>
        {native ? (
          <Button size="lg" className="mt-4" onClick={() => void share()}>
            <Share2 className="h-5 w-5" aria-hidden="true" />
            Share
          </Button>
        ) : (
          <div className="mt-4 flex flex-wrap justify-center gap-3">
            {shareLinks(message, link).map((n) => (
              <Button key={n.name} variant="outline" asChild>
                <a href={n.href} target="_blank" rel="noopener noreferrer">
                  <Share2 className="h-4 w-4" aria-hidden="true" />
                  <span className="sr-only">Share on </span>
                  {n.name}
                  <span className="sr-only"> (opens in a new tab)</span>
                </a>
              </Button>
            ))}
            <Button variant="outline" onClick={() => void copy()}>
              {copied ? (
                <Check className="h-4 w-4" aria-hidden="true" />
              ) : (
                <Link2 className="h-4 w-4" aria-hidden="true" />
              )}
              {copied ? 'Link copied' : 'Copy link'}
            </Button>
          </div>
        )}
        <span className="sr-only" role="status">
          {copied ? 'Link to the campaign copied to the clipboard' : ''}
        </span>
      </Card>
    </section>
  );
}
