// Types of scripts/writers.mjs for the server's tests (packages/server/test/writers.test.ts).
export function moduleOf(rel: string): string;
export function tableWriters(repoRoot?: string): {
  /** table → writer module → the statements (file:line under packages/server/src) */
  tables: Map<string, Map<string, string[]>>;
  /** statements whose table is handed to them (file:line) */
  handed: string[];
};
