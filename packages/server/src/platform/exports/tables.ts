/**
 * The export engine's own table (migration 0012-export-files): a finished export's workbook, stored in the
 * database so every instance can serve it (docs/deployment.md, "Background jobs"). Written in the transaction
 * that marks its job done; removed with the job (ON DELETE CASCADE) or when the job expires.
 */
export interface ExportFileTable {
  JobId: number;
  /** The .xlsx bytes (blob on SQLite, bytea on PostgreSQL). */
  Content: Uint8Array;
}

export interface ExportTables {
  ExportFile: ExportFileTable;
}

declare module '../../db/schema.ts' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- merged, not empty
  interface Database extends ExportTables {}
}
