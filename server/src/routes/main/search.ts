import type { FastifyInstance } from 'fastify'
import {
  clearSearchHistory,
  listHotSearches,
  listSearchHistory,
  search,
} from '@contract/main/content'
import * as history from '../../domain/search/history'
import * as searching from '../../domain/search/search'
import { currentUser, optionalUserId } from '../../http/auth'
import { route } from '../../http/route'

/** Main service: search, history and hot words (contract/main/content.ts). Issue 10. */
export default async function mainSearchRoutes(app: FastifyInstance): Promise<void> {
  route(app, search, async (input, { request }) => {
    const found = await searching.search(app.db, input)
    // The first page only: paging through results is one search, not several.
    if ((input.page ?? 1) === 1) {
      await history.recordSearch(
        app.db,
        { userId: await optionalUserId(request), q: input.q },
        app.now(),
      )
    }
    return found
  })

  route(app, listSearchHistory, async (_input, { request }) =>
    history.listHistory(app.db, currentUser(request).id),
  )

  route(app, clearSearchHistory, async ({ id }, { request }) => {
    await history.clearHistory(app.db, currentUser(request).id, id)
    return { ok: true as const }
  })

  route(app, listHotSearches, async () => history.hotSearches(app.db, app.now()))
}
