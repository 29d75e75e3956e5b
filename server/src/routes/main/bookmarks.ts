import type { FastifyInstance } from 'fastify'
import { addBookmark, deleteBookmark, listBookmarks } from '@contract/main/bookmarks'
import * as bookmarks from '../../domain/patient/bookmarks'
import { currentUser } from '../../http/auth'
import { route } from '../../http/route'

/** Main service, a patient's bookmarks of slices (contract/main/bookmarks.ts). */
export default async function mainBookmarksRoutes(app: FastifyInstance): Promise<void> {
  route(app, listBookmarks, async ({ examId }, { request }) =>
    bookmarks.listBookmarks(app.db, app.personalCipher, currentUser(request).id, examId),
  )

  route(app, addBookmark, async (input, { request }) =>
    bookmarks.addBookmark(app.db, app.personalCipher, currentUser(request).id, input, app.now()),
  )

  route(app, deleteBookmark, async ({ bookmarkId }, { request }) => {
    await bookmarks.deleteBookmark(app.db, currentUser(request).id, bookmarkId)
    return { ok: true as const }
  })
}
