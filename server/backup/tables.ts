import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { NOT_BACKED_UP } from './format';

async function rows<T>(db: DbOrTx, query: ReturnType<typeof sql>): Promise<T[]> {
  const res = (await db.execute(query)) as unknown as { rows: T[] };
  return res.rows;
}

/** Tables to copy, parents before children (foreign keys), so rows restore in file order. */
export async function backedUpTables(db: DbOrTx): Promise<string[]> {
  const tables = (
    await rows<{ name: string }>(
      db,
      sql`select table_name as name from information_schema.tables
          where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
    )
  )
    .map((t) => t.name)
    .filter((t) => !(t in NOT_BACKED_UP));
  const edges = await rows<{ child: string; parent: string }>(
    db,
    sql`select c.conrelid::regclass::text as child, c.confrelid::regclass::text as parent
        from pg_constraint c join pg_namespace n on n.oid = c.connamespace
        where c.contype = 'f' and n.nspname = 'public'`,
  );
  const unquote = (s: string) => s.replace(/^"|"$/g, '');
  const ordered: string[] = [];
  const visit = (t: string, path: Set<string>) => {
    if (ordered.includes(t) || path.has(t)) return;
    path.add(t);
    for (const e of edges)
      if (unquote(e.child) === t && unquote(e.parent) !== t) visit(unquote(e.parent), path);
    if (tables.includes(t)) ordered.push(t);
  };
  for (const t of tables) visit(t, new Set());
  return ordered;
}

/** Columns a restore can write (generated columns compute themselves). */
export async function writableColumns(db: DbOrTx, table: string): Promise<string[]> {
  return (
    await rows<{ name: string }>(
      db,
      sql`select column_name as name from information_schema.columns
          where table_schema = 'public' and table_name = ${table} and is_generated = 'NEVER'
          order by ordinal_position`,
    )
  ).map((c) => c.name);
}

/** Serial and identity columns, whose sequences must follow the restored ids. */
export async function sequenceColumns(
  db: DbOrTx,
): Promise<{ table: string; column: string; always: boolean }[]> {
  return (
    await rows<{ table: string; column: string; always: boolean }>(
      db,
      sql`select table_name as "table", column_name as "column",
            (is_identity = 'YES' and identity_generation = 'ALWAYS') as always
          from information_schema.columns
          where table_schema = 'public' and (column_default like 'nextval(%' or is_identity = 'YES')`,
    )
  ).filter((c) => !(c.table in NOT_BACKED_UP));
}

export const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Every sequence of the public schema and where it stands (not transactional: may run ahead). */
export async function sequencePositions(
  db: DbOrTx,
): Promise<Record<string, { value: number; called: boolean }>> {
  const list = await rows<{ name: string }>(
    db,
    sql`select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where c.relkind = 'S' and n.nspname = 'public' order by 1`,
  );
  const out: Record<string, { value: number; called: boolean }> = {};
  for (const { name } of list) {
    const [s] = await rows<{ value: string | number; called: boolean }>(
      db,
      sql.raw(`select last_value as value, is_called as called from ${quoteIdent(name)}`),
    );
    out[name] = { value: Number(s.value), called: Boolean(s.called) };
  }
  return out;
}
