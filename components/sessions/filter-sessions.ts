// Search by title: case- and accent-insensitive, every word of the query must appear in the title
// (in any order). An empty query keeps every session.
const fold = (text: string) =>
  text
    .normalize("NFKD")
    .replace(/\p{Diacritic}/gu, "")
    .toLocaleLowerCase();

export function filterSessionsByTitle<T extends { title: string }>(sessions: T[], query: string): T[] {
  const words = fold(query).split(/\s+/).filter(Boolean);
  if (words.length === 0) return sessions;
  return sessions.filter((session) => {
    const title = fold(session.title);
    return words.every((word) => title.includes(word));
  });
}
