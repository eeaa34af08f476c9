import { useEffect } from 'react';
import { NOT_FOUND_TITLE, STATUS_TITLE } from '@shared/pages';
import { Skeleton } from '../components/ui/skeleton';
import {
  downloadInstructions,
  PaymentDetails,
  ReferenceCard,
} from '../features/campaign/components/payment-instructions';
import { useCampaign } from '../features/campaign/use-campaign';
import { useSearchParam } from '../lib/navigation';
import { useDonorPledge } from '../features/pledge-status/api';
import { PledgeStatus } from '../features/pledge-status/components/pledge-status';
import { DonorData } from '../features/pledge-status/components/donor-data';
import { useProgress } from '../features/progress/api';
import { DeliveryProgress } from '../features/progress/components/delivery-progress';
import { NotFoundPage } from './not-found';
import type { DonorPledgeView } from '@shared/schemas/email';

/** What the donor still has to send: the pledge, or what is left after a part payment. */
function toTransfer(p: DonorPledgeView) {
  return {
    amountMinor: p.outstandingMinor ?? Math.round(p.outstandingAmount * 100),
    currency: p.currency,
  };
}

/**
 * /pledge/{id}?t={token} (docs/decisions/014-email-outbox.md). Anything the server does not
 * recognise (wrong or missing token, unknown pledge) is the ordinary 404 page: the server already
 * answered it with 404.
 */
export function PledgeStatusPage({ id }: { id: string }) {
  const token = useSearchParam('t');
  const campaign = useCampaign();
  const pledge = useDonorPledge(id, token);
  const progress = useProgress();
  useEffect(() => {
    document.title = pledge.isError ? NOT_FOUND_TITLE : STATUS_TITLE;
  }, [pledge.isError]);
  if (pledge.isError) return <NotFoundPage />;
  if (!campaign || !pledge.data)
    return (
      <div className="mx-auto max-w-3xl px-4 py-14" aria-busy="true">
        <Skeleton className="mx-auto h-10 w-80" />
        <Skeleton className="mt-8 h-64 w-full" />
      </div>
    );
  return (
    <PledgeStatus
      pledge={pledge.data}
      token={token}
      paymentDetails={
        <>
          <ReferenceCard reference={pledge.data.reference} />
          <PaymentDetails
            campaign={campaign}
            reference={pledge.data.reference}
            amount={toTransfer(pledge.data)}
          />
        </>
      }
      extra={
        <>
          {progress.data ? (
            <DeliveryProgress
              delivered={progress.data.containersDelivered ?? 0}
              paidFor={progress.data.confirmedAmount}
            />
          ) : null}
          <DonorData pledgeId={pledge.data.id} token={token} />
        </>
      }
      onDownload={() =>
        downloadInstructions(campaign, pledge.data.reference, toTransfer(pledge.data))
      }
    />
  );
}
