import { type Kysely, type Migration, PostgresAdapter, sql } from 'kysely'

/*
 * Chinese substring search over articles (issue 10). Chinese has no spaces between words, so a
 * word index cannot find 肺结节 inside 磨玻璃肺结节随访; both databases index character trigrams
 * instead, which find any substring of three characters or more:
 *
 * - SQLite: an FTS5 table with the trigram tokenizer (SQLite ≥ 3.34), external content over
 *   `articles` kept in step by triggers. MATCH with a quoted phrase is a substring match.
 * - PostgreSQL: pg_trgm's GIN index over the same text, used by ILIKE '%…%'. pg_trgm only makes
 *   trigrams of characters the database's LC_CTYPE calls letters: under the C locale Chinese
 *   characters are not, and the index is skipped (the answers stay right, only slower). README
 *   says to create the database with a UTF-8 LC_CTYPE (C.UTF-8 or zh_CN.UTF-8); the test cluster
 *   does. The extension is created in `public`, so dropping an app schema never drops it.
 *
 * Queries of one or two characters have no trigram: domain/search answers them with LIKE.
 * Videos, hospitals and experts are a few hundred rows at most: LIKE, no index.
 */

const isPostgres = (db: Kysely<unknown>) => db.getExecutor().adapter instanceof PostgresAdapter

/** The text a search looks in, the same expression in the index and in the query. */
export const ARTICLE_SEARCH_TEXT = `(title || ' ' || summary || ' ' || plain_text)`

export const search: Migration = {
  async up(db: Kysely<unknown>) {
    if (isPostgres(db)) {
      await sql`create extension if not exists pg_trgm schema public`.execute(db)
      await sql
        .raw(
          `create index articles_search_trgm on articles using gin (${ARTICLE_SEARCH_TEXT} public.gin_trgm_ops)`,
        )
        .execute(db)
      return
    }
    await sql`
      create virtual table articles_fts using fts5(
        title, summary, plain_text, content='articles', content_rowid='rowid', tokenize='trigram'
      )`.execute(db)
    await sql`
      create trigger articles_fts_insert after insert on articles begin
        insert into articles_fts(rowid, title, summary, plain_text)
        values (new.rowid, new.title, new.summary, new.plain_text);
      end`.execute(db)
    await sql`
      create trigger articles_fts_delete after delete on articles begin
        insert into articles_fts(articles_fts, rowid, title, summary, plain_text)
        values ('delete', old.rowid, old.title, old.summary, old.plain_text);
      end`.execute(db)
    await sql`
      create trigger articles_fts_update after update of title, summary, plain_text on articles begin
        insert into articles_fts(articles_fts, rowid, title, summary, plain_text)
        values ('delete', old.rowid, old.title, old.summary, old.plain_text);
        insert into articles_fts(rowid, title, summary, plain_text)
        values (new.rowid, new.title, new.summary, new.plain_text);
      end`.execute(db)
    await sql`insert into articles_fts(articles_fts) values ('rebuild')`.execute(db)
  },
  async down(db: Kysely<unknown>) {
    if (isPostgres(db)) {
      await sql`drop index if exists articles_search_trgm`.execute(db)
      return
    }
    for (const trigger of ['articles_fts_insert', 'articles_fts_delete', 'articles_fts_update']) {
      await sql.raw(`drop trigger if exists ${trigger}`).execute(db)
    }
    await sql`drop table if exists articles_fts`.execute(db)
  },
}
