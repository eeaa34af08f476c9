import { Skeleton } from '../components/ui/skeleton';
import { PaymentInstructions } from '../features/campaign/components/payment-instructions';
import { useCampaign } from '../features/campaign/use-campaign';
import { rememberedStatusLink } from '../lib/status-link';

/** The thank-you page with the bank details, all from the campaign config. */
export function PaymentInstructionsPage() {
  const campaign = useCampaign();
  if (!campaign)
    return (
      <div className="mx-auto max-w-3xl px-4 py-14">
        <Skeleton className="mx-auto h-10 w-80" />
        <Skeleton className="mt-8 h-64 w-full" />
      </div>
    );
  return <PaymentInstructions campaign={campaign} statusLink={rememberedStatusLink()} />;
}
