import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { percentOf } from '../lib/progress';

/** The API's own words for a refusal, announced to screen readers. */
export const ErrorText = ({ message }: { message: string | undefined }) =>
  message ? (
    <p class="error" role="alert">
      {message}
    </p>
  ) : null;

export const Status = ({ status }: { status: string | null }) => (
  <span class={`status status-${(status ?? 'unknown').replace(/[^a-z_]/g, '')}`}>
    {status ?? 'unknown'}
  </span>
);

/** A progress bar for anything with a percentage ("40%"); nothing when there is none. */
export const Progress = ({ progress, label }: { progress: string | null; label: string }) => {
  const percent = percentOf(progress);
  if (percent === null) return null;
  return (
    <span class="progress">
      <progress max={100} value={percent} aria-label={label}>
        {percent}%
      </progress>
      <span class="progress-text" aria-hidden="true">
        {percent}%
      </span>
    </span>
  );
};

/** Copies `text` to the clipboard; says so for screen readers. */
export const CopyButton = ({ text, label }: { text: string; label: string }) => {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
      setTimeout(() => setCopied(false), 2000);
    } catch {
      setCopied(false);
    }
  };
  return (
    <button type="button" class="small" onClick={() => void copy()} aria-label={label}>
      {copied ? 'Copied' : 'Copy'}
    </button>
  );
};

export const Section = ({
  title,
  children,
  id,
}: {
  title: string;
  children: ComponentChildren;
  id: string;
}) => (
  <section aria-labelledby={`${id}-title`} class="card">
    <h2 id={`${id}-title`}>{title}</h2>
    {children}
  </section>
);

export const when = (iso: string | null | undefined): string =>
  iso ? new Date(iso).toLocaleString() : '';

/** A column whose header is a button that sorts the table on it; `sort` is how it is sorted now. */
export interface SortableColumn {
  readonly label: string;
  readonly sort: 'ascending' | 'descending' | 'none';
  readonly onSort: () => void;
}

const ColumnHeader = ({ column }: { column: string | SortableColumn }) => {
  if (typeof column === 'string') return <th scope="col">{column}</th>;
  const arrow = { ascending: ' ▲', descending: ' ▼', none: '' }[column.sort];
  return (
    <th scope="col" aria-sort={column.sort}>
      <button type="button" class="sort" onClick={column.onSort}>
        {column.label}
        <span aria-hidden="true">{arrow}</span>
      </button>
    </th>
  );
};

/**
 * A table whose header names `columns` (a falsy entry leaves its column out; a sortable one is
 * a button) and whose body is `children`, scrolling sideways inside its card on a narrow screen.
 */
export const Table = ({
  columns,
  caption,
  busy,
  children,
}: {
  columns: readonly (string | SortableColumn | false)[];
  caption?: string;
  busy?: boolean;
  children: ComponentChildren;
}) => (
  <div class="table-wrap">
    <table aria-busy={busy}>
      {caption && <caption>{caption}</caption>}
      <thead>
        <tr>
          {columns
            .filter((column) => column !== false)
            .map((column) => (
              <ColumnHeader
                key={typeof column === 'string' ? column : column.label}
                column={column}
              />
            ))}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  </div>
);
