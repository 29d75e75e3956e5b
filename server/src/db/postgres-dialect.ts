/**
 * Kysely's PostgreSQL dialect, with an introspector that looks only at the schemas of this
 * connection's search_path (our `DATABASE_SCHEMA`, or `public`).
 *
 * Kysely's Migrator asks the introspector whether its bookkeeping tables exist. The stock query reads
 * the columns of every table in the database and calls has_schema_privilege() and
 * pg_get_serial_sequence() on each: when another application (or another test file) drops its own
 * schema at that moment, those functions fail with 3F000 or 42P01 and our start fails with them. The
 * same question asked of our own schemas only cannot meet someone else's drop, and reads far less.
 */
import {
  type DatabaseIntrospector,
  type DatabaseMetadata,
  type DatabaseMetadataOptions,
  DEFAULT_MIGRATION_LOCK_TABLE,
  DEFAULT_MIGRATION_TABLE,
  type Kysely,
  PostgresDialect,
  type SchemaMetadata,
  sql,
  type TableMetadata,
} from 'kysely'

interface ColumnRow {
  schema: string
  table: string
  table_type: string
  column: string
  type: string
  type_schema: string
  not_null: boolean
  has_default: boolean
  is_identity: boolean
  column_description: string | null
}

export class OwnSchemaPostgresIntrospector implements DatabaseIntrospector {
  readonly #db: Kysely<unknown>

  constructor(db: Kysely<unknown>) {
    this.#db = db
  }

  async getSchemas(): Promise<SchemaMetadata[]> {
    const { rows } = await sql<{
      name: string
    }>`select nspname as name from pg_catalog.pg_namespace where nspname = any(current_schemas(false))`.execute(
      this.#db,
    )
    return rows.map((row) => ({ name: row.name }))
  }

  async getTables(
    options: DatabaseMetadataOptions = { withInternalKyselyTables: false },
  ): Promise<TableMetadata[]> {
    const { rows } = await sql<ColumnRow>`
      select ns.nspname as schema, c.relname as table, c.relkind as table_type,
             a.attname as column, typ.typname as type, dtns.nspname as type_schema,
             a.attnotnull as not_null, a.atthasdef as has_default,
             (a.attidentity <> '' or pg_get_expr(d.adbin, d.adrelid) like 'nextval(%') as is_identity,
             col_description(a.attrelid, a.attnum) as column_description
      from pg_catalog.pg_attribute a
      join pg_catalog.pg_class c on a.attrelid = c.oid
      join pg_catalog.pg_namespace ns on c.relnamespace = ns.oid
      join pg_catalog.pg_type typ on a.atttypid = typ.oid
      join pg_catalog.pg_namespace dtns on typ.typnamespace = dtns.oid
      left join pg_catalog.pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
      where ns.nspname = any(current_schemas(false))
        and c.relkind in ('r', 'v', 'p')
        and a.attnum >= 0 and not a.attisdropped
      order by ns.nspname, c.relname, a.attnum`.execute(this.#db)
    const internal = new Set<string>([DEFAULT_MIGRATION_TABLE, DEFAULT_MIGRATION_LOCK_TABLE])
    const tables = new Map<
      string,
      TableMetadata & { columns: TableMetadata['columns'][number][] }
    >()
    for (const row of rows) {
      if (!options.withInternalKyselyTables && internal.has(row.table)) continue
      const key = `${row.schema}.${row.table}`
      let table = tables.get(key)
      if (!table) {
        table = { name: row.table, schema: row.schema, isView: row.table_type === 'v', columns: [] }
        tables.set(key, table)
      }
      table.columns.push({
        name: row.column,
        dataType: row.type,
        dataTypeSchema: row.type_schema,
        isNullable: !row.not_null,
        hasDefaultValue: row.has_default,
        isAutoIncrementing: row.is_identity,
        ...(row.column_description === null ? {} : { comment: row.column_description }),
      })
    }
    return [...tables.values()]
  }

  async getMetadata(options?: DatabaseMetadataOptions): Promise<DatabaseMetadata> {
    return { tables: await this.getTables(options) }
  }
}

export class OwnSchemaPostgresDialect extends PostgresDialect {
  override createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new OwnSchemaPostgresIntrospector(db)
  }
}
