import { formatDateTimeMedium } from '@shared/dates';
import { useCampaignTimeZone } from '../../../lib/campaign-time-zone';
import { useState } from 'react';
import type { StatementImportSummary } from '@shared/schemas/statement';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { useStatementImports, useUndoStatementImport } from '../api';
import { ConfirmDialog } from './confirm-dialog';

/**
 * "Recent imports": each statement file imported, with its lines still open and matched, and
 * "Undo import" (a wrong file, the wrong account): its confirmations are reversed and its lines
 * removed, so the file can be imported again.
 */
export function StatementImports() {
  const timeZone = useCampaignTimeZone();
  const when = (iso: string) => formatDateTimeMedium(iso, timeZone);
  const imports = useStatementImports();
  const undo = useUndoStatementImport();
  const [asking, setAsking] = useState<StatementImportSummary | null>(null);
  const list = imports.data?.imports ?? [];
  if (list.length === 0) return null;
  return (
    <Card className="grid gap-3 p-4">
      <h3 className="font-bold text-ink-900">Recent imports</h3>
      <div className="overflow-x-auto">
        <table className="w-full min-w-[640px] text-left text-sm">
          <caption className="sr-only">Statement files imported, newest first</caption>
          <thead className="bg-ink-50 text-ink-700">
            <tr>
              {['File', 'Imported', 'Incoming transfers', 'Confirmed', 'Open', ''].map((h, i) => (
                <th key={h || i} scope="col" className="px-3 py-2 font-semibold">
                  {h || <span className="sr-only">Action</span>}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {list.map((i) => (
              <tr key={i.id} className="border-t border-ink-100">
                <td className="px-3 py-2 break-all">{i.fileName ?? '(no name)'}</td>
                <td className="px-3 py-2 whitespace-nowrap">{when(i.importedAt)}</td>
                <td className="px-3 py-2 tabular-nums">
                  {i.credits} ({i.newLines} new)
                </td>
                <td className="px-3 py-2 tabular-nums">{i.undoneAt ? '–' : i.matchedLines}</td>
                <td className="px-3 py-2 tabular-nums">{i.undoneAt ? '–' : i.openLines}</td>
                <td className="px-3 py-2">
                  {i.undoneAt ? (
                    <span className="text-ink-600">Undone {when(i.undoneAt)}</span>
                  ) : (
                    <Button
                      size="sm"
                      variant="outline"
                      aria-label={`Undo import of ${i.fileName ?? 'this file'}`}
                      onClick={() => setAsking(i)}
                    >
                      Undo import
                    </Button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <ConfirmDialog
        open={asking !== null}
        onOpenChange={(open) => !open && setAsking(null)}
        title="Undo this import?"
        description={
          asking
            ? `${asking.fileName ?? 'This file'}: ${asking.matchedLines} confirmed line(s) are reversed (those pledges lose that payment) and its ${asking.credits} line(s) are removed. You can import the file again. This is recorded in Activity.`
            : ''
        }
        confirmLabel="Undo import"
        pendingLabel="Undoing..."
        pending={undo.isPending}
        destructive
        onConfirm={() => {
          if (asking) undo.mutate(asking.id, { onSettled: () => setAsking(null) });
        }}
      />
    </Card>
  );
}
