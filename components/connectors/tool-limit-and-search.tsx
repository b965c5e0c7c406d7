"use client";
// Above a chat's connectors in the Tools panel: the warning that the chat's tools are over its
// provider's limits (it is said before anything is sent; see docs/provider-limits.md), and the tool
// search over every connector's tools, by name and description.
type Props = {
  problem: string | null;
  search: string;
  onSearch: (search: string) => void;
};

export function ToolLimitAndSearch({ problem, search, onSearch }: Props) {
  return (
    <>
      {problem && (
        <p
          role="status"
          className="rounded-md bg-red-50 p-2 text-xs text-red-800 dark:bg-red-950 dark:text-red-200"
          data-testid="tools-limit"
        >
          {problem}
        </p>
      )}
      <input
        type="search"
        aria-label="Search tools"
        placeholder="Search tools"
        className="rounded-md border border-zinc-300 bg-transparent px-2 py-1 text-xs dark:border-zinc-700"
        value={search}
        onChange={(event) => onSearch(event.target.value)}
      />
    </>
  );
}
