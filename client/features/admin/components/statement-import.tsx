import { useState, type ChangeEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import {
  STATEMENT_MAX_BYTES,
  STATEMENT_TOO_LARGE,
  type StatementImportResult,
  type StatementMapping as Mapping0,
  type StatementPreview,
} from '@shared/schemas/statement';
import { errorMessage } from '../../../lib/api-client';
import { importStatement, previewStatement, statementKeys } from '../api';
import { Label } from '../../../components/ui/label';
import { reviewStore } from '../review-store';
import { ImportSummary, StatementMapping, type Mapping } from './statement-mapping';
import { StatementImports } from './statement-imports';
import { StatementReview } from './statement-review';

/**
 * "Import bank statement" (docs/decisions/013-statement-matching.md): choose the CSV, map its
 * columns once (remembered), review each credit with its proposed pledge and why, tick and confirm
 * in one batch.
 */
export function StatementImport() {
  const [file, setFile] = useState<{ name: string; content: Blob } | null>(null);
  const [preview, setPreview] = useState<StatementPreview | null>(null);
  const [mapping, setMapping] = useState<Mapping>({});
  const [mappingName, setMappingName] = useState('');
  const [summary, setSummary] = useState<StatementImportResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const queryClient = useQueryClient();

  async function onFile(e: ChangeEvent<HTMLInputElement>) {
    const f = e.target.files?.[0];
    setError(null);
    setPreview(null);
    setSummary(null);
    if (!f) return;
    if (f.size > STATEMENT_MAX_BYTES) {
      setError(STATEMENT_TOO_LARGE);
      return;
    }
    // The bytes as they are now: the same ones go to the preview and to the import.
    const content = new Blob([await f.arrayBuffer()]);
    setFile({ name: f.name, content });
    await readPreview(content);
  }

  /** The columns, first rows and matching saved mapping; again when the first-row switch moves. */
  async function readPreview(content: Blob, firstRowIsData?: boolean) {
    setBusy(true);
    setError(null);
    try {
      const p = await previewStatement(content, firstRowIsData);
      setPreview(p);
      setMapping(p.mapping);
      setMappingName(p.mappingName);
    } catch (err) {
      setError(errorMessage(err, 'This file could not be read.'));
    } finally {
      setBusy(false);
    }
  }

  async function runImport() {
    if (!file) return;
    setBusy(true);
    setError(null);
    try {
      const r = await importStatement(
        file.name,
        file.content,
        preview?.format === 'csv' ? (mapping as Mapping0) : undefined,
        mappingName,
      );
      setSummary(r);
      // The review lists the open lines page by page (its own query); the counts stay with it.
      const { credits, newLines, alreadyImported, skipped } = r;
      reviewStore.imported({ fileName: file.name, credits, newLines, alreadyImported, skipped });
      await queryClient.invalidateQueries({ queryKey: statementKeys.all });
      // Imported: the review takes the place of the mapping screen.
      setPreview(null);
    } catch (err) {
      setError(errorMessage(err, 'The statement could not be imported.'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby="import-heading" className="grid gap-5">
      <div>
        <h2 id="import-heading" className="text-xl font-bold text-ink-900">
          Import bank statement
        </h2>
        <p className="mt-1 text-sm text-ink-700">
          Upload the CSV, OFX/QFX or CAMT.053 export of your online banking (at most 5 MB and 20,000
          lines). Each completed incoming transfer is matched to a pledge by its payment reference,
          or by amount and payer name. Importing the same statement again never confirms a payment
          twice.
        </p>
      </div>
      <div className="grid max-w-md gap-1.5">
        <Label htmlFor="statement-file">Bank statement (CSV)</Label>
        <input
          id="statement-file"
          type="file"
          accept=".csv,.txt,.ofx,.qfx,.xml,text/csv,text/plain,application/xml,text/xml"
          onChange={(e) => void onFile(e)}
          className="text-sm file:mr-3 file:rounded-lg file:border file:border-ink-300 file:bg-white file:px-3 file:py-2 file:font-semibold"
        />
      </div>
      {error ? (
        <p role="alert" className="rounded-lg border border-red-200 bg-red-50 p-3 text-red-800">
          {error}
        </p>
      ) : null}

      {preview ? (
        <StatementMapping
          preview={preview}
          mapping={mapping}
          onChange={setMapping}
          mappingName={mappingName}
          onMappingName={setMappingName}
          onFirstRowIsData={(v) => file && void readPreview(file.content, v)}
          busy={busy}
          onImport={() => void runImport()}
        />
      ) : null}

      {summary?.skippedBy ? <ImportSummary result={summary} /> : null}

      <StatementReview />

      <StatementImports />
    </section>
  );
}
