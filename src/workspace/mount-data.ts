/** A mounted table's content as it travels from the ledger to the engine: names, column types and rows. */
export interface MountData {
  name: string;
  note: string;
  columns: { name: string; type: 'TEXT' | 'INTEGER' | 'REAL' }[];
  rows: (string | number | null)[][];
}
