import { lazy, Suspense, useEffect, useState } from 'react';
import type { Campaign } from '@shared/schemas/campaign';
import { hasSeenLightbox } from '../lightbox-flag';

/**
 * The lightbox and the dialog code under it (Radix Dialog: focus trap, scroll lock) load only for
 * a first visit, after the page is interactive: a returning visitor never downloads them, and
 * they are not in the home's first-load JavaScript (docs/decisions/017-server-rendering.md).
 */
const CampaignLightbox = lazy(() =>
  import('./campaign-lightbox').then((m) => ({ default: m.CampaignLightbox })),
);

export function FirstVisitLightbox({ campaign }: { campaign: Campaign }) {
  // Decided after hydration: the server cannot read localStorage, and both renders must match.
  const [firstVisit, setFirstVisit] = useState(false);
  // eslint-disable-next-line react-hooks/set-state-in-effect -- localStorage is read after hydration: server and first client render must match
  useEffect(() => setFirstVisit(!hasSeenLightbox()), []);
  if (!firstVisit) return null;
  return (
    <Suspense fallback={null}>
      <CampaignLightbox campaign={campaign} />
    </Suspense>
  );
}
