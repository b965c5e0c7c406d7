"use client";
// A table whose column headers sort it (click again to reverse), with aria-sort on the sorted one.
// Columns say how to read a cell's sort value and how to show it.
import { useState } from "react";

export type Column<Row> = {
  key: string;
  label: string;
  sortValue: (row: Row) => number | string | null;
  show: (row: Row) => string;
  isText?: boolean;
};

type Props<Row> = {
  caption: string;
  columns: Column<Row>[];
  rows: Row[];
  rowKey: (row: Row) => string;
  testId: string;
};

function compare(a: number | string | null, b: number | string | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return typeof a === "number" && typeof b === "number" ? a - b : String(a).localeCompare(String(b));
}

export function SortableTable<Row>({ caption, columns, rows, rowKey, testId }: Props<Row>) {
  const [sort, setSort] = useState<{ key: string; isDescending: boolean } | null>(null);
  const column = columns.find((candidate) => candidate.key === sort?.key);
  const sorted = column
    ? [...rows].sort((a, b) => compare(column.sortValue(a), column.sortValue(b)) * (sort?.isDescending ? -1 : 1))
    : rows;
  const toggle = (key: string, isText: boolean) =>
    setSort((current) =>
      current?.key === key ? { key, isDescending: !current.isDescending } : { key, isDescending: !isText },
    );
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm" data-testid={testId}>
        <caption className="mb-2 text-left font-medium">{caption}</caption>
        <thead>
          <tr className="border-b border-zinc-200 dark:border-zinc-800">
            {columns.map(({ key, label, isText }) => (
              <th
                key={key}
                scope="col"
                className="px-2 py-1 whitespace-nowrap"
                aria-sort={sort?.key === key ? (sort.isDescending ? "descending" : "ascending") : undefined}
              >
                <button type="button" className="hover:underline" onClick={() => toggle(key, !!isText)}>
                  {label}
                  {sort?.key === key ? (sort.isDescending ? " ↓" : " ↑") : ""}
                </button>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {sorted.map((row) => (
            <tr key={rowKey(row)} className="border-b border-zinc-100 dark:border-zinc-900">
              {columns.map((col) => (
                <td
                  key={col.key}
                  className={`px-2 py-1 whitespace-nowrap ${col.isText ? "" : "text-right tabular-nums"}`}
                >
                  {col.show(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
