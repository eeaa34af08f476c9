import { lazy, Suspense, useState } from 'react';
import { SERVER_PAGE_PATHS } from '@shared/pages';
import { unitPriceText } from '@shared/prices';
import type { DeliveryUpdate } from '@shared/schemas/update';
import { Card } from '../components/ui/card';
import { Skeleton } from '../components/ui/skeleton';
import { useAdminAuth } from '../features/admin-auth/context';
import { FirstVisitLightbox } from '../features/campaign/components/first-visit-lightbox';
import { MissionCard } from '../features/campaign/components/mission-card';
import { useCampaign } from '../features/campaign/use-campaign';
import { useRecentPledges } from '../features/pledges/api';
import { PledgeNowButton } from '../features/pledges/components/pledge-dialog-provider';
import { RecentPledges } from '../features/pledges/components/recent-pledges';
import { useProgress } from '../features/progress/api';
import { useLiveProgress } from '../features/progress/live-progress';
import { ProgressBar } from '../features/progress/components/progress-bar';
import { ProgressTiles } from '../features/progress/components/progress-tiles';
import { DeliveryUpdates } from '../features/updates/components/delivery-updates';

/** Admin-only dialog: its code loads when an admin first edits an update. */
const EditUpdateDialog = lazy(() => import('../features/admin/components/edit-update-dialog'));

/** The campaign home: everything on it comes from the page's embedded data. */
export function HomePage() {
  const campaign = useCampaign();
  const { adminControls } = useAdminAuth();
  const progress = useProgress();
  const pledges = useRecentPledges(adminControls);
  // The numbers and the newest pledges follow other people's pledges while the page is open.
  useLiveProgress(adminControls);
  const [editing, setEditing] = useState<DeliveryUpdate | null>(null);

  return (
    <>
      <section className="relative overflow-hidden bg-brand-800 text-white">
        {/* A soft glow drawn with a gradient: a CSS blur filter costs every frame on phones. */}
        <div
          aria-hidden="true"
          className="pointer-events-none absolute inset-0 bg-[radial-gradient(circle_at_85%_0%,var(--color-brand-600),transparent_45%)] opacity-70"
        />
        <div className="relative mx-auto grid max-w-6xl grid-cols-1 items-center gap-6 px-4 pt-7 pb-10 sm:px-6 lg:grid-cols-[minmax(0,1.15fr)_minmax(0,1fr)] lg:gap-12 lg:py-16">
          <div>
            <p className="text-sm font-bold tracking-wider text-sun-300 uppercase">
              {campaign?.eyebrow}
            </p>
            <h1 className="mt-2 text-4xl font-extrabold tracking-tight text-balance sm:text-5xl">
              {campaign?.name ?? <Skeleton className="h-12 w-72 bg-brand-700" />}
            </h1>
            <p className="mt-3 max-w-xl text-lg leading-relaxed text-brand-50 sm:text-xl">
              {campaign?.tagline}
            </p>
            <p className="mt-5 inline-flex items-center gap-2 rounded-2xl bg-white/10 px-4 py-2 text-sm font-semibold text-white ring-1 ring-white/20">
              <span aria-hidden="true" className="h-2 w-2 rounded-full bg-sun-400" />
              {unitPriceText()} provides one meal container
            </p>
          </div>

          <Card className="p-5 text-ink-900 shadow-xl sm:p-7">
            <h2 className="sr-only">Campaign progress</h2>
            <ProgressBar
              currentAmount={progress.data?.currentAmount}
              goalAmount={progress.data?.goalAmount}
              confirmedAmount={progress.data?.confirmedAmount}
              outstandingAmount={progress.data?.outstandingAmount}
              deliveredAmount={progress.data?.containersDelivered}
              isLoading={progress.isLoading}
            />
            <PledgeNowButton size="lg" className="mt-5 w-full text-lg" />
            {/* The page is rendered on the server and readable without JavaScript; the pledge
                form is not (docs/decisions/017-server-rendering.md). */}
            <noscript>
              <p className="mt-2 text-center text-sm text-ink-700">
                The pledge form needs JavaScript. Please turn it on to pledge.
              </p>
            </noscript>
            {/* A plain link: the page is rendered on the server, with no JavaScript. */}
            <p className="mt-3 text-center text-sm">
              <a
                href={SERVER_PAGE_PATHS.whereTheMoneyGoes}
                className="font-semibold text-brand-800 underline underline-offset-2 hover:text-brand-900"
              >
                Where the money goes
              </a>
            </p>
            <div className="mt-5">
              <ProgressTiles
                donorCount={progress.data?.donorCount}
                currentAmount={progress.data?.currentAmount}
                goalAmount={progress.data?.goalAmount}
              />
            </div>
          </Card>
        </div>
      </section>

      <div className="mx-auto grid max-w-6xl grid-cols-1 gap-14 px-4 py-12 sm:px-6">
        {campaign ? <MissionCard campaign={campaign} /> : null}
        <RecentPledges
          pledges={pledges.data}
          isLoading={pledges.isLoading}
          adminControls={adminControls}
          emptyAction={<PledgeNowButton>Make the first pledge</PledgeNowButton>}
        />
        <DeliveryUpdates onEdit={adminControls ? setEditing : undefined} />
      </div>

      {campaign ? <FirstVisitLightbox campaign={campaign} /> : null}
      {editing ? (
        <Suspense fallback={null}>
          <EditUpdateDialog
            update={editing}
            open
            onOpenChange={(open) => {
              if (!open) setEditing(null);
            }}
          />
        </Suspense>
      ) : null}
    </>
  );
}
