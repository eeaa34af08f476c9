import { ArrowLeft } from 'lucide-react';
import { Button } from '../components/ui/button';
import { Link } from '../lib/navigation';

/** Any other path (the server answers it with status 404 and this app). */
export function NotFoundPage() {
  return (
    <div className="mx-auto flex max-w-xl flex-col items-center px-4 py-20 text-center">
      <p className="text-6xl font-extrabold text-brand-700" aria-hidden="true">
        404
      </p>
      <h1 className="mt-4 text-3xl font-extrabold tracking-tight text-ink-900">
        404 Page Not Found
      </h1>
      <p className="mt-3 text-lg text-ink-700">
        The page you are looking for does not exist or has moved.
      </p>
      <Button size="lg" variant="outline" className="mt-8" asChild>
        <Link to="/">
          <ArrowLeft className="h-5 w-5" aria-hidden="true" />
          Return to Campaign
        </Link>
      </Button>
    </div>
  );
}
