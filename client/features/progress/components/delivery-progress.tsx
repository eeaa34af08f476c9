import { formatNumber } from '@shared/format';
import { SERVER_PAGE_PATHS } from '@shared/pages';

/**
 * How far delivery has come, for the donor's status page: "So far 41,200 of the 60,000
 * containers paid for have been delivered."
 */
export function deliveryProgressText(delivered: number, paidFor: number): string {
  if (delivered <= 0)
    return 'No containers have been delivered yet: the first go out as the money arrives.';
  if (paidFor <= 0 || delivered >= paidFor)
    return `So far ${formatNumber(delivered)} containers have been delivered.`;
  return `So far ${formatNumber(delivered)} of the ${formatNumber(paidFor)} containers paid for have been delivered.`;
}

export function DeliveryProgress({ delivered, paidFor }: { delivered: number; paidFor: number }) {
  return (
    <p className="mt-6 text-center text-ink-800" data-testid="delivery-progress">
      {deliveryProgressText(delivered, paidFor)}{' '}
      <a
        href={SERVER_PAGE_PATHS.whereTheMoneyGoes}
        className="font-semibold text-brand-800 underline"
      >
        Where the money goes
      </a>
    </p>
  );
}
