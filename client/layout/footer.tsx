import type { Campaign } from '@shared/schemas/campaign';
import { SERVER_PAGE_PATHS } from '@shared/pages';
import { BrandMark } from './brand-mark';

/**
 * The campaign's disclaimer (no payment data stored, receipts from the charity), from the campaign
 * config.
 */
export function Footer({ campaign }: { campaign?: Campaign }) {
  return (
    <footer className="mt-16 bg-brand-900 text-brand-50">
      <div className="mx-auto grid max-w-6xl gap-8 px-4 py-10 sm:px-6 md:grid-cols-[1fr_2fr]">
        <div>
          <div className="flex items-center gap-2.5">
            <BrandMark className="h-9 w-9" />
            <p className="text-lg font-extrabold text-white">{campaign?.name}</p>
          </div>
          {campaign ? (
            <p className="mt-3 text-sm text-brand-100">
              A partnership of {campaign.partners.map((p) => p.name).join(' and ')}
              {/* "Co." already ends the sentence */}
              {campaign.partners.at(-1)?.name.endsWith('.') ? '' : '.'}
            </p>
          ) : null}
          {/* The ledger and the privacy notice, plain links to server-rendered pages. */}
          <nav aria-label="About this campaign" className="mt-3">
            <ul className="grid gap-1 text-sm">
              <li>
                <a
                  className="text-white underline underline-offset-2"
                  href={SERVER_PAGE_PATHS.whereTheMoneyGoes}
                >
                  Where the money goes
                </a>
              </li>
              <li>
                <a
                  className="text-white underline underline-offset-2"
                  href={SERVER_PAGE_PATHS.privacy}
                >
                  Privacy notice
                </a>
              </li>
            </ul>
          </nav>
        </div>
        <div>
          <h2 className="text-sm font-bold tracking-wider text-sun-300 uppercase">Disclaimer</h2>
          <ul className="mt-3 grid gap-2 text-sm leading-relaxed text-brand-50">
            {campaign?.footerDisclaimer.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        </div>
      </div>
    </footer>
  );
}
