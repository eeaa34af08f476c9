import * as DialogPrimitive from '@radix-ui/react-dialog';
import { X } from 'lucide-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import {
  LIGHTBOX_AUTO_CLOSE_MS,
  LIGHTBOX_FADE_IN_DELAY_MS,
  LIGHTBOX_FADE_OUT_MS,
} from '@shared/constants';
import type { Campaign } from '@shared/schemas/campaign';
import { campaignText } from '@shared/share';
import { cn } from '../../../lib/cn';
import { hasSeenLightbox, markLightboxSeen } from '../lightbox-flag';

type Phase = 'closed' | 'mounted' | 'visible' | 'leaving';

/**
 * A donor who tapped Pledge Now early is in the form, or about to be: the form's code may arrive
 * before this one (a slow connection) or just after it (a fast one, while this is still fading
 * in). A second modal on top of the form would hide the whole form from screen readers and take
 * the focus, so the lightbox gives way to any other dialog, whenever it appears.
 */
function anotherDialogIsOpen(own?: Element | null): boolean {
  return [...document.querySelectorAll('[role="dialog"], [role="alertdialog"]')].some(
    (dialog) => dialog !== own,
  );
}

function prefersReducedMotion(): boolean {
  return window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
}

/**
 * The campaign context, once per browser (product rule): fades in after 50 ms, closes on a click
 * anywhere, on its close button, on Escape or after 30 s, then fades out over 300 ms. Radix keeps
 * focus inside while it is open and gives it back after. Without motion it appears and goes at
 * once.
 */
export function CampaignLightbox({ campaign }: { campaign: Campaign }) {
  // Only ever rendered in the browser, after hydration (first-visit-lightbox.tsx loads it).
  const [phase, setPhase] = useState<Phase>(() =>
    hasSeenLightbox() || anotherDialogIsOpen() ? 'closed' : 'mounted',
  );
  const reduced = useRef(false);
  const closeButton = useRef<HTMLButtonElement>(null);
  const content = useRef<HTMLDivElement>(null);

  const dismiss = useCallback(() => {
    markLightboxSeen();
    setPhase((p) => (p === 'mounted' || p === 'visible' ? 'leaving' : p));
  }, []);

  // Another dialog opened while this one is up: close at once, and count it as seen only if the
  // donor has seen it (not while it was still fading in).
  const open = phase !== 'closed';
  useEffect(() => {
    if (!open) return;
    const giveWay = () => {
      if (!anotherDialogIsOpen(content.current)) return;
      setPhase((p) => {
        if (p === 'visible') markLightboxSeen();
        return 'closed';
      });
    };
    const observer = new MutationObserver(giveWay);
    observer.observe(document.body, { childList: true, subtree: true });
    // A dialog that reached the page after this one's first render but before this effect ran
    // (both codes arriving together) is no mutation the observer will see: look once now.
    giveWay();
    return () => observer.disconnect();
  }, [open]);

  useEffect(() => {
    if (phase === 'mounted') {
      reduced.current = prefersReducedMotion();
      const timer = setTimeout(
        () => setPhase('visible'),
        reduced.current ? 0 : LIGHTBOX_FADE_IN_DELAY_MS,
      );
      return () => clearTimeout(timer);
    }
    if (phase === 'leaving') {
      const timer = setTimeout(
        () => setPhase('closed'),
        reduced.current ? 0 : LIGHTBOX_FADE_OUT_MS,
      );
      return () => clearTimeout(timer);
    }
  }, [phase]);

  useEffect(() => {
    if (!open) return;
    const timer = setTimeout(dismiss, LIGHTBOX_AUTO_CLOSE_MS);
    return () => clearTimeout(timer);
  }, [open, dismiss]);

  if (!open) return null;
  const shown = phase === 'visible';
  const sections: [string, string][] = [
    ['Context', campaign.lightbox.context],
    ['Problem 1', campaign.lightbox.problem1],
    ['Problem 2', campaign.lightbox.problem2],
    ['Solution', campaign.lightbox.solution],
    ['How You Can Help', campaignText(campaign.lightbox.howYouCanHelp, campaign)],
  ];

  return (
    <DialogPrimitive.Root open onOpenChange={(o) => (o ? undefined : dismiss())}>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay
          data-testid="campaign-lightbox-overlay"
          className={cn(
            'fixed inset-0 z-40 bg-ink-900/70 transition-opacity duration-300',
            shown ? 'opacity-100' : 'opacity-0',
          )}
        />
        <DialogPrimitive.Content
          ref={content}
          data-testid="campaign-lightbox"
          data-phase={phase}
          onClick={dismiss}
          onOpenAutoFocus={(event) => {
            // Radix would move focus in while the dialog mounts, which makes the browser style and
            // lay out the whole page (the scroll lock has just changed the body) in the same task:
            // the home's longest after React's own code. A frame later, that work is done
            // (docs/decisions/017-server-rendering.md).
            event.preventDefault();
            requestAnimationFrame(() =>
              setTimeout(() => closeButton.current?.focus({ preventScroll: true }), 0),
            );
          }}
          className={cn(
            'fixed top-1/2 left-1/2 z-50 max-h-[90dvh] w-[calc(100vw-1.5rem)] max-w-2xl -translate-x-1/2 -translate-y-1/2 overflow-y-auto',
            'cursor-pointer rounded-2xl bg-white shadow-2xl transition-opacity duration-300 focus:outline-none',
            shown ? 'opacity-100' : 'opacity-0',
          )}
        >
          <div className="rounded-t-2xl bg-brand-800 px-6 pt-6 pb-5 text-white sm:px-8">
            <p className="text-sm font-semibold tracking-wider text-sun-300 uppercase">
              {campaign.eyebrow}
            </p>
            <DialogPrimitive.Title className="mt-1 pr-8 text-2xl font-extrabold tracking-tight">
              {campaign.name}
            </DialogPrimitive.Title>
            <DialogPrimitive.Description className="mt-1 text-brand-50">
              {campaign.tagline}
            </DialogPrimitive.Description>
          </div>
          <div className="grid gap-4 px-6 py-6 sm:px-8">
            {sections.map(([title, text]) => (
              <section key={title}>
                <h3
                  className={cn(
                    'text-sm font-bold tracking-wider uppercase',
                    title === 'How You Can Help' ? 'text-brand-700' : 'text-ink-600',
                  )}
                >
                  {title}
                </h3>
                <p className="mt-1 leading-relaxed text-ink-800">{text}</p>
              </section>
            ))}
            <p className="text-center text-sm text-ink-600">Tap or click anywhere to continue</p>
          </div>
          <DialogPrimitive.Close
            ref={closeButton}
            aria-label="Close"
            className="absolute top-4 right-4 rounded-md p-1.5 text-white hover:bg-white/15 focus-visible:outline-none focus-visible:ring-3 focus-visible:ring-sun-400"
          >
            <X className="h-5 w-5" aria-hidden="true" />
          </DialogPrimitive.Close>
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}
