/**
 * Layout of a static table (bulk previews and reports), pure: the one column engine (core/columns.ts) fits the
 * widths to the terminal in display cells and cuts cells with an ellipsis. The Ink view only draws what this
 * computes.
 */
import { type ColumnShape, fitText, planColumns } from '../core/columns.js';

export interface TableColumn {
  /** Key of the row object. */
  key: string;
  /** Header text; defaults to the key. */
  header?: string;
  /** Narrowest width before the cell is cut (default 4). */
  minWidth?: number;
  /** Widest the column is drawn when the terminal has room (default 60). */
  widest?: number;
}

export type TableRow = Record<string, unknown>;

/** A cell as text: strings as they are, other values as compact JSON, absent as an empty cell. */
export function cellText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value.replace(/\s*\n\s*/g, ' ');
  if (value instanceof Date) return value.toISOString();
  return JSON.stringify(value);
}

function shapesOf(columns: readonly TableColumn[]): ColumnShape[] {
  return columns.map((c) => ({ header: c.header ?? c.key, fit: 'cut', min: Math.max(c.minWidth ?? 4, 1), widest: c.widest }));
}

/**
 * Column widths (display cells) that fit `maxWidth` with two spaces between columns: each column wants its
 * widest cell; when the total is too wide, the widest columns give up space first, down to their `minWidth`.
 */
export function columnWidths(columns: readonly TableColumn[], rows: readonly TableRow[], maxWidth: number): number[] {
  return planColumns(shapesOf(columns), rows.map((row) => columns.map((c) => cellText(row[c.key]))), maxWidth).widths;
}

/** The header and body lines of a table as padded cells (one string per cell, each as wide as its column). */
export function layoutTable(
  columns: readonly TableColumn[],
  rows: readonly TableRow[],
  maxWidth: number,
): { widths: number[]; header: string[]; body: string[][] } {
  const widths = columnWidths(columns, rows, maxWidth);
  const pad = (text: string, i: number) => fitText(text, widths[i]!);
  return {
    widths,
    header: columns.map((c, i) => pad(c.header ?? c.key, i)),
    body: rows.map((row) => columns.map((c, i) => pad(cellText(row[c.key]), i))),
  };
}
