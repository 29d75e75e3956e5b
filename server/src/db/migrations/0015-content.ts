import { type Kysely, type Migration, sql } from 'kysely'

/*
 * Health content, favourites, feedback, points and the apps page (issue 10).
 *
 * content_files: files operators upload (article covers, video posters, the videos themselves,
 * feature icons) and feedback images. Covers, posters, videos and icons are public once an article
 * or a video names them (served at /media/<id> with ranges); feedback images are read only by their
 * sender and operators. `attached_at` stays null until something names the file; an unnamed file is
 * removed after a day.
 * article_types / articles: operators' content. `plain_text` is the body without tags, kept for the
 * search index (0016). Counters move in the same transaction as the row that justifies them
 * (article_reads, article_likes, favourites), only when that row was inserted or deleted.
 * article_reads: one row per (article, reader, China's calendar day); the reader is `u:<user id>`
 * or `r:<X-Reader-Id>`.
 * videos / video_positions: where each signed-in viewer stopped.
 * search_history: one row per (person, distinct query), moved to the top when searched again;
 * search_counts: searches per (query, day) for 热门搜索; hot_words: operators' picks.
 * favourites: one row per (person, kind, target).
 * feedback / feedback_images: what a person sent, the operator's reply, whether it was adopted.
 * point_balances / point_entries: a balance that can never go negative (CHECK), moved in the same
 * transaction as its ledger row; (user, reason, ref) is unique so one event never pays twice.
 * features / web_origins: what operators switch without a release.
 */
export const content: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('content_files')
      .addColumn('id', 'text', (col) => col.primaryKey())
      // 'cover' | 'poster' | 'video' | 'icon' | 'feedback'
      .addColumn('kind', 'text', (col) => col.notNull())
      .addColumn('storage_key', 'text', (col) => col.notNull())
      .addColumn('mime_type', 'text', (col) => col.notNull())
      .addColumn('size_bytes', 'integer', (col) => col.notNull())
      .addColumn('width', 'integer')
      .addColumn('height', 'integer')
      .addColumn('uploaded_by_user_id', 'text', (col) =>
        col.references('users.id').onDelete('set null'),
      )
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('attached_at', 'text')
      .execute()
    await db.schema
      .createIndex('content_files_unattached_idx')
      .on('content_files')
      .columns(['attached_at', 'created_at'])
      .execute()

    await db.schema
      .createTable('article_types')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('name', 'text', (col) => col.notNull().unique())
      .addColumn('sort_order', 'integer', (col) => col.notNull())
      .addColumn('created_at', 'text', (col) => col.notNull())
      .execute()

    await db.schema
      .createTable('articles')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('type_id', 'text', (col) => col.notNull().references('article_types.id'))
      .addColumn('title', 'text', (col) => col.notNull())
      .addColumn('summary', 'text', (col) => col.notNull())
      .addColumn('html', 'text', (col) => col.notNull())
      .addColumn('plain_text', 'text', (col) => col.notNull())
      .addColumn('cover_file_id', 'text', (col) => col.references('content_files.id'))
      .addColumn('author', 'text')
      .addColumn('source', 'text')
      // 'draft' | 'published' | 'unpublished' (contract PUBLISH_STATES)
      .addColumn('state', 'text', (col) => col.notNull())
      // JSON array of what the sanitiser removed at the last save.
      .addColumn('removed', 'text', (col) => col.notNull())
      .addColumn('demo', 'integer', (col) => col.notNull())
      .addColumn('published_at', 'text')
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('updated_at', 'text', (col) => col.notNull())
      .addColumn('updated_by_user_id', 'text', (col) =>
        col.references('users.id').onDelete('set null'),
      )
      .addColumn('read_count', 'integer', (col) => col.notNull())
      .addColumn('like_count', 'integer', (col) => col.notNull())
      .addColumn('favourite_count', 'integer', (col) => col.notNull())
      .execute()
    await db.schema
      .createIndex('articles_published_idx')
      .on('articles')
      .columns(['state', 'published_at', 'id'])
      .execute()
    await db.schema
      .createIndex('articles_type_published_idx')
      .on('articles')
      .columns(['type_id', 'state', 'published_at', 'id'])
      .execute()

    await db.schema
      .createTable('article_reads')
      .addColumn('article_id', 'text', (col) =>
        col.notNull().references('articles.id').onDelete('cascade'),
      )
      .addColumn('reader', 'text', (col) => col.notNull())
      .addColumn('day', 'text', (col) => col.notNull())
      .addColumn('user_id', 'text', (col) => col.references('users.id').onDelete('cascade'))
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addPrimaryKeyConstraint('article_reads_pk', ['article_id', 'reader', 'day'])
      .execute()
    await db.schema
      .createIndex('article_reads_user_idx')
      .on('article_reads')
      .columns(['user_id', 'article_id'])
      .execute()

    await db.schema
      .createTable('article_likes')
      .addColumn('article_id', 'text', (col) =>
        col.notNull().references('articles.id').onDelete('cascade'),
      )
      .addColumn('user_id', 'text', (col) =>
        col.notNull().references('users.id').onDelete('cascade'),
      )
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addPrimaryKeyConstraint('article_likes_pk', ['article_id', 'user_id'])
      .execute()
    await db.schema
      .createIndex('article_likes_user_idx')
      .on('article_likes')
      .column('user_id')
      .execute()

    await db.schema
      .createTable('videos')
      .addColumn('id', 'text', (col) => col.primaryKey())
      // contract VIDEO_CATEGORIES
      .addColumn('category', 'text', (col) => col.notNull())
      .addColumn('title', 'text', (col) => col.notNull())
      .addColumn('summary', 'text', (col) => col.notNull())
      .addColumn('video_file_id', 'text', (col) => col.notNull().references('content_files.id'))
      .addColumn('poster_file_id', 'text', (col) => col.references('content_files.id'))
      .addColumn('duration_seconds', 'integer', (col) => col.notNull())
      .addColumn('state', 'text', (col) => col.notNull())
      .addColumn('demo', 'integer', (col) => col.notNull())
      .addColumn('published_at', 'text')
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('updated_at', 'text', (col) => col.notNull())
      .addColumn('updated_by_user_id', 'text', (col) =>
        col.references('users.id').onDelete('set null'),
      )
      .addColumn('play_count', 'integer', (col) => col.notNull())
      .addColumn('favourite_count', 'integer', (col) => col.notNull())
      .execute()
    await db.schema
      .createIndex('videos_published_idx')
      .on('videos')
      .columns(['category', 'state', 'published_at', 'id'])
      .execute()

    await db.schema
      .createTable('video_positions')
      .addColumn('video_id', 'text', (col) =>
        col.notNull().references('videos.id').onDelete('cascade'),
      )
      .addColumn('user_id', 'text', (col) =>
        col.notNull().references('users.id').onDelete('cascade'),
      )
      .addColumn('seconds', 'integer', (col) => col.notNull())
      .addColumn('updated_at', 'text', (col) => col.notNull())
      .addPrimaryKeyConstraint('video_positions_pk', ['video_id', 'user_id'])
      .execute()

    await db.schema
      .createTable('search_history')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('user_id', 'text', (col) =>
        col.notNull().references('users.id').onDelete('cascade'),
      )
      .addColumn('q', 'text', (col) => col.notNull())
      .addColumn('searched_at', 'text', (col) => col.notNull())
      .execute()
    await db.schema
      .createIndex('search_history_uq')
      .on('search_history')
      .columns(['user_id', 'q'])
      .unique()
      .execute()
    await db.schema
      .createIndex('search_history_recent_idx')
      .on('search_history')
      .columns(['user_id', 'searched_at'])
      .execute()

    await db.schema
      .createTable('search_counts')
      .addColumn('q', 'text', (col) => col.notNull())
      .addColumn('day', 'text', (col) => col.notNull())
      .addColumn('count', 'integer', (col) => col.notNull())
      .addPrimaryKeyConstraint('search_counts_pk', ['q', 'day'])
      .execute()
    await db.schema.createIndex('search_counts_day_idx').on('search_counts').column('day').execute()

    await db.schema
      .createTable('hot_words')
      .addColumn('q', 'text', (col) => col.primaryKey())
      .addColumn('sort_order', 'integer', (col) => col.notNull())
      .addColumn('created_at', 'text', (col) => col.notNull())
      .execute()

    await db.schema
      .createTable('favourites')
      .addColumn('user_id', 'text', (col) =>
        col.notNull().references('users.id').onDelete('cascade'),
      )
      // contract FAVOURITE_KINDS (the consultation issue adds question and doctor)
      .addColumn('kind', 'text', (col) => col.notNull())
      .addColumn('target_id', 'text', (col) => col.notNull())
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addPrimaryKeyConstraint('favourites_pk', ['user_id', 'kind', 'target_id'])
      .execute()
    await db.schema
      .createIndex('favourites_list_idx')
      .on('favourites')
      .columns(['user_id', 'kind', 'created_at'])
      .execute()
    await db.schema
      .createIndex('favourites_target_idx')
      .on('favourites')
      .columns(['kind', 'target_id'])
      .execute()

    await db.schema
      .createTable('feedback')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('user_id', 'text', (col) =>
        col.notNull().references('users.id').onDelete('cascade'),
      )
      // contract FEEDBACK_TYPES
      .addColumn('type', 'text', (col) => col.notNull())
      .addColumn('text', 'text', (col) => col.notNull())
      .addColumn('contact', 'text')
      // 'open' | 'replied' | 'closed'
      .addColumn('status', 'text', (col) => col.notNull())
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('reply_text', 'text')
      .addColumn('replied_at', 'text')
      .addColumn('replied_by_user_id', 'text', (col) =>
        col.references('users.id').onDelete('set null'),
      )
      .addColumn('adopted', 'integer', (col) => col.notNull())
      .execute()
    await db.schema
      .createIndex('feedback_user_idx')
      .on('feedback')
      .columns(['user_id', 'created_at'])
      .execute()
    await db.schema
      .createIndex('feedback_status_idx')
      .on('feedback')
      .columns(['status', 'created_at'])
      .execute()

    await db.schema
      .createTable('feedback_images')
      .addColumn('feedback_id', 'text', (col) =>
        col.notNull().references('feedback.id').onDelete('cascade'),
      )
      .addColumn('position', 'integer', (col) => col.notNull())
      .addColumn('file_id', 'text', (col) =>
        col.notNull().references('content_files.id').onDelete('cascade'),
      )
      .addPrimaryKeyConstraint('feedback_images_pk', ['feedback_id', 'position'])
      .execute()

    await db.schema
      .createTable('point_balances')
      .addColumn('user_id', 'text', (col) =>
        col.primaryKey().references('users.id').onDelete('cascade'),
      )
      .addColumn('balance', 'integer', (col) => col.notNull().check(sql`balance >= 0`))
      .addColumn('updated_at', 'text', (col) => col.notNull())
      .execute()

    await db.schema
      .createTable('point_entries')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('user_id', 'text', (col) =>
        col.notNull().references('users.id').onDelete('cascade'),
      )
      // contract POINT_REASONS
      .addColumn('reason', 'text', (col) => col.notNull())
      // What earned it (an article id, a feedback id …): one event pays once.
      .addColumn('ref', 'text', (col) => col.notNull())
      .addColumn('delta', 'integer', (col) => col.notNull())
      .addColumn('balance_after', 'integer', (col) => col.notNull())
      .addColumn('created_at', 'text', (col) => col.notNull())
      .execute()
    await db.schema
      .createIndex('point_entries_uq')
      .on('point_entries')
      .columns(['user_id', 'reason', 'ref'])
      .unique()
      .execute()
    await db.schema
      .createIndex('point_entries_list_idx')
      .on('point_entries')
      .columns(['user_id', 'created_at'])
      .execute()

    await db.schema
      .createTable('features')
      .addColumn('key', 'text', (col) => col.primaryKey())
      .addColumn('name', 'text', (col) => col.notNull())
      .addColumn('icon_path', 'text', (col) => col.notNull())
      // JSON: {"route": "...", "params": {...}} or {"url": "https://..."}
      .addColumn('link', 'text', (col) => col.notNull())
      .addColumn('sort_order', 'integer', (col) => col.notNull())
      .addColumn('enabled', 'integer', (col) => col.notNull())
      .addColumn('updated_at', 'text', (col) => col.notNull())
      .execute()

    await db.schema
      .createTable('web_origins')
      .addColumn('origin', 'text', (col) => col.primaryKey())
      .addColumn('created_at', 'text', (col) => col.notNull())
      .execute()
  },
  async down(db: Kysely<unknown>) {
    for (const table of [
      'web_origins',
      'features',
      'point_entries',
      'point_balances',
      'feedback_images',
      'feedback',
      'favourites',
      'hot_words',
      'search_counts',
      'search_history',
      'video_positions',
      'videos',
      'article_likes',
      'article_reads',
      'articles',
      'article_types',
      'content_files',
    ]) {
      await db.schema.dropTable(table).execute()
    }
  },
}
