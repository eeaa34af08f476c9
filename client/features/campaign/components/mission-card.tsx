import { CircleCheck } from 'lucide-react';
import type { Campaign } from '@shared/schemas/campaign';
import { Card } from '../../../components/ui/card';

/** The campaign's mission, partner logos (linking to the partners) and who receives containers. */
export function MissionCard({ campaign }: { campaign: Campaign }) {
  return (
    <Card className="grid grid-cols-1 gap-8 p-6 sm:p-8 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)] lg:gap-12">
      <div>
        <h2 className="text-2xl font-bold tracking-tight text-ink-900">Our Mission</h2>
        <div className="mt-3 grid gap-3 text-base leading-relaxed text-ink-700">
          {campaign.mission.map((p) => (
            <p key={p}>{p}</p>
          ))}
        </div>

        <h3 className="mt-8 text-sm font-bold tracking-wider text-ink-600 uppercase">
          In partnership with
        </h3>
        <ul className="mt-3 grid grid-cols-1 gap-3 sm:grid-cols-2">
          {campaign.partners.map((partner) => (
            <li key={partner.name}>
              <a
                href={partner.url}
                target="_blank"
                rel="noopener noreferrer"
                className="flex h-full flex-col gap-2 rounded-xl border border-ink-100 bg-ink-50 p-4 transition-colors hover:border-brand-200 hover:bg-brand-50 focus-visible:outline-none focus-visible:ring-3 focus-visible:ring-sun-400"
              >
                <img
                  src={partner.logo}
                  alt=""
                  width={200}
                  height={60}
                  className="h-14 w-auto self-start"
                />
                <span>
                  <span className="block font-semibold text-ink-900">{partner.name}</span>
                  <span className="block text-sm text-ink-600">{partner.role}</span>
                  <span className="sr-only"> (opens in a new tab)</span>
                </span>
              </a>
            </li>
          ))}
        </ul>
      </div>

      <div className="rounded-xl bg-brand-50 p-5 ring-1 ring-brand-100 sm:p-6 lg:self-start">
        <h3 className="text-sm font-bold tracking-wider text-brand-800 uppercase">
          Containers go to
        </h3>
        <ul className="mt-3 grid gap-3">
          {campaign.suppliedEntities.map((entity) => (
            <li key={entity} className="flex items-start gap-2.5 text-ink-800">
              <CircleCheck className="mt-0.5 h-5 w-5 shrink-0 text-brand-700" aria-hidden="true" />
              <span>{entity}</span>
            </li>
          ))}
        </ul>
      </div>
    </Card>
  );
}
