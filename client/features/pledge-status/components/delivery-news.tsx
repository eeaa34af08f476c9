import { Mail } from 'lucide-react';
import { NEWS_CONSENT_LABEL } from '@shared/news';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { useNewsChoice } from '../api';

/** The status page's delivery news choice: what it is now, and the button that changes it. */
export function DeliveryNewsChoice({
  id,
  token,
  subscribed,
}: {
  id: string;
  token: string;
  subscribed: boolean;
}) {
  const choice = useNewsChoice(id, token);
  return (
    <section aria-labelledby="delivery-news-heading">
      <Card className="mt-6 p-5 sm:p-6">
        <h2
          id="delivery-news-heading"
          className="flex items-center gap-2 text-xl font-bold text-ink-900"
        >
          <Mail className="h-5 w-5 text-brand-700" aria-hidden="true" />
          Delivery news
        </h2>
        <p className="mt-2 text-ink-700" role="status">
          {subscribed
            ? 'We e-mail you when containers are delivered. Every e-mail has an unsubscribe link.'
            : 'We do not e-mail you about deliveries.'}
        </p>
        <Button
          className="mt-4"
          variant={subscribed ? 'outline' : 'default'}
          disabled={choice.isPending}
          onClick={() => choice.mutate(!subscribed)}
        >
          {subscribed ? 'Unsubscribe from delivery news' : NEWS_CONSENT_LABEL}
        </Button>
      </Card>
    </section>
  );
}
