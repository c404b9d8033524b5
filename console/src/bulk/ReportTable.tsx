/**
 * Checked CSV rows as a table (the Bulk page's and the cafe menu import's): each row numbered as in
 * the person's spreadsheet, bad rows marked, each bad cell with its message, a problem of a column
 * the file lacks in the row's Check cell, and a switch to show only the rows that need fixing.
 */
import { useState } from 'preact/hooks';
import type { CsvTable } from './csv.js';
import type { CheckReport } from './report.js';

/** The checked rows as a table: bad rows marked, each bad cell with its message, what the header lacks said per row. */
export function ReportTable({ table, report, label = 'Checked rows' }: { table: CsvTable; report: CheckReport; label?: string }) {
  const [onlyBad, setOnlyBad] = useState(false);
  const known = new Set(table.header);
  const shown = onlyBad ? table.rows.filter((r) => report.rows.has(r.row)) : table.rows;
  return (
    <div class="bulk-report">
      {report.other.length > 0 && (
        <ul class="field-error">
          {report.other.map((m) => (
            <li key={m}>{m}</li>
          ))}
        </ul>
      )}
      {report.rows.size > 0 && (
        <label class="check">
          <input type="checkbox" checked={onlyBad} onChange={(e) => setOnlyBad(e.currentTarget.checked)} />
          Show only the rows that need fixing
        </label>
      )}
      <div class="table-wrap" tabIndex={0} role="region" aria-label={`${label} (scrolls sideways on a narrow screen)`}>
        <table class="bulk-table">
          <thead>
            <tr>
              <th scope="col">Row</th>
              {table.header.map((name, i) => (
                <th scope="col" key={i} class={report.header.has(i) ? 'cell-invalid' : undefined}>
                  {name}
                  {report.header.has(i) && <span class="cell-error">{report.header.get(i)}</span>}
                </th>
              ))}
              <th scope="col">Check</th>
            </tr>
          </thead>
          <tbody>
            {shown.map(({ row, cells }) => {
              const problems = report.rows.get(row);
              // Problems at a column the file does not have (a required one left out) are said in the row's Check cell.
              const elsewhere = problems ? [...problems].filter(([column]) => !known.has(column)) : [];
              return (
                <tr key={row} class={problems ? 'row-invalid' : undefined}>
                  <th scope="row">{row}</th>
                  {table.header.map((name, i) => {
                    const message = problems?.get(name);
                    return (
                      <td
                        key={i}
                        class={message ? 'cell-invalid' : undefined}
                        data-column={name}
                        title={message ? undefined : cells[i] || undefined}
                      >
                        {cells[i] || (message && <span class="blank">(blank)</span>)}
                        {message && <span class="cell-error">{message}</span>}
                      </td>
                    );
                  })}
                  <td>
                    {problems ? 'Needs fixing' : 'Ready'}
                    {elsewhere.map(([column, message]) => (
                      <span class="cell-error" key={column}>
                        {column ? `${column}: ${message}` : message}
                      </span>
                    ))}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </div>
  );
}
