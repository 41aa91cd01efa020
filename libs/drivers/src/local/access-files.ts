import type { LocalShareMeta } from './local-metadata.js';

export interface ExportedShare {
  readonly dir: string;
  readonly meta: LocalShareMeta;
  /** Where NFS clients mount it, when not the share instance's own pseudo path (a snapshot). */
  readonly pseudo?: string;
}

/** /etc/exports syntax: one line per NFS share with at least one rule. */
export function renderNfsExports(shares: readonly ExportedShare[]): string {
  const lines = ['# Managed by Hawser: rewritten on every access change.'];
  for (const { dir, meta } of sortByDir(shares)) {
    if (meta.protocol !== 'NFS' || meta.rules.length === 0) continue;
    const clients = meta.rules
      .map((rule) => `${rule.accessTo}(${rule.accessLevel},sync,no_subtree_check)`)
      .join(' ');
    lines.push(`${quoteIfNeeded(dir)} ${clients}`);
  }
  return `${lines.join('\n')}\n`;
}

function sortByDir(shares: readonly ExportedShare[]): ExportedShare[] {
  return [...shares].sort((a, b) => a.dir.localeCompare(b.dir));
}

function quoteIfNeeded(dir: string): string {
  return /\s/.test(dir) ? `"${dir}"` : dir;
}
