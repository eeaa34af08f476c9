// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { StatementImportResult, StatementPreview } from '@shared/schemas/statement';
import { ImportSummary, StatementMapping, type Mapping } from './statement-mapping';

afterEach(cleanup);

const preview: StatementPreview = {
  format: 'csv',
  headers: ['Column 1', 'Column 2', 'Column 3'],
  sample: [
    ['01/02/2025', '100.00', 'ZELLE FROM JANE BROWN'],
    ['01/03/2025', '-15.00', 'MONTHLY SERVICE FEE'],
  ],
  delimiter: ',',
  encoding: 'UTF-8',
  firstRowIsData: true,
  lineCount: 2,
  mapping: { date: 'Column 1', amount: 'Column 2', description: 'Column 3', dateOrder: 'MDY' },
  mappings: [
    {
      id: 'm1',
      name: 'NCB JMD account',
      mapping: {
        date: 'Column 1',
        amount: 'Column 2',
        description: 'Column 3',
        fixedCurrency: 'JMD',
      },
    },
  ],
  matchedMappingId: null,
  mappingName: 'Statement without header, 3 columns',
};

function renderMapping(over: Partial<Parameters<typeof StatementMapping>[0]> = {}) {
  const props = {
    preview,
    mapping: preview.mapping as Mapping,
    onChange: vi.fn(),
    mappingName: preview.mappingName,
    onMappingName: vi.fn(),
    onFirstRowIsData: vi.fn(),
    busy: false,
    onImport: vi.fn(),
    ...over,
  };
  render(<StatementMapping {...props} />);
  return props;
}

describe('the mapping screen', () => {
  it('shows the first rows under the pickers, in a captioned table', () => {
    renderMapping();
    const table = screen.getByRole('table', { name: 'The first 2 lines of the file' });
    expect(within(table).getAllByRole('row')).toHaveLength(3);
    expect(within(table).getByText('ZELLE FROM JANE BROWN').textContent).toBe(
      'ZELLE FROM JANE BROWN',
    );
  });

  it('has the "The first row is a transaction" switch, which reads the columns again', () => {
    const props = renderMapping();
    const box = screen.getByRole('checkbox', { name: 'The first row is a transaction' });
    expect(box.getAttribute('aria-checked')).toBe('true');
    fireEvent.click(box);
    expect(props.onFirstRowIsData).toHaveBeenCalledWith(false);
  });

  it('names the mapping and picks a saved one', () => {
    const props = renderMapping();
    fireEvent.change(screen.getByLabelText('Name of this mapping'), {
      target: { value: 'US checking' },
    });
    expect(props.onMappingName).toHaveBeenCalledWith('US checking');
    fireEvent.change(screen.getByLabelText('Saved mapping'), { target: { value: 'm1' } });
    expect(props.onMappingName).toHaveBeenCalledWith('NCB JMD account');
    expect(props.onChange).toHaveBeenCalled();
  });

  it('needs no mapping for OFX and CAMT.053', () => {
    renderMapping({ preview: { ...preview, format: 'camt053', mappings: [] } });
    expect(screen.getByText(/ISO 20022 CAMT\.053 statement, 2 transactions/).textContent).toMatch(
      /ISO 20022 CAMT\.053 statement, 2 transactions/,
    );
    expect(screen.queryByLabelText('Date')).toBeNull();
  });
});

describe('the import summary', () => {
  it('says lines and pledges apart, skipped by kind, refused lines with their number', () => {
    const result: StatementImportResult = {
      credits: 12,
      newLines: 9,
      alreadyImported: 3,
      possibleDuplicates: 1,
      skipped: 3,
      skippedBy: { moneyOut: 2, notCompleted: 1, other: 0 },
      refused: [{ line: 8, reason: '"01/32/2025" is not a date (as MDY).' }],
      pledges: 7,
      lines: [],
    };
    render(<ImportSummary result={result} />);
    expect(screen.getByRole('status').textContent).toContain(
      '12 incoming transfers in the file: 9 new, 3 imported before, 1 possible duplicate; 7 pledges proposed. 3 lines skipped: 2 money out, 1 not completed.',
    );
    expect(screen.getByRole('alert').textContent).toContain(
      'Line 8: "01/32/2025" is not a date (as MDY).',
    );
  });
});
