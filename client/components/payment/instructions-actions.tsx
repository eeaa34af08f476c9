import { ArrowLeft, Download } from 'lucide-react';
import { Link } from '../../lib/navigation';
import { Button } from '../ui/button';

/**
 * "Download Instructions" and "Return to Campaign" under the payment details: the same pair on
 * the thank-you page and the donor's status page.
 */
export function InstructionsActions({
  onDownload,
  downloadVariant = 'default',
}: {
  onDownload: () => void;
  downloadVariant?: 'default' | 'outline';
}) {
  return (
    <div className="mt-8 flex flex-col gap-3 sm:flex-row sm:justify-center">
      <Button size="lg" variant={downloadVariant} onClick={onDownload}>
        <Download className="h-5 w-5" aria-hidden="true" />
        Download Instructions
      </Button>
      <Button size="lg" variant="outline" asChild>
        <Link to="/">
          <ArrowLeft className="h-5 w-5" aria-hidden="true" />
          Return to Campaign
        </Link>
      </Button>
    </div>
  );
}
