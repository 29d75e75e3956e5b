import type { FastifyInstance } from 'fastify'
import { addFavourite, listFavourites, removeFavourite } from '@contract/main/favourites'
import * as favourites from '../../domain/favourites'
import { currentUser } from '../../http/auth'
import { route } from '../../http/route'

/** Main service: favourites (contract/main/favourites.ts), the person's own only. Issue 10. */
export default async function mainFavouritesRoutes(app: FastifyInstance): Promise<void> {
  route(app, listFavourites, async (input, { request }) =>
    favourites.listFavourites(app.db, app.personalCipher, currentUser(request).id, input),
  )

  route(app, addFavourite, async ({ kind, targetId }, { request }) => ({
    favourited: true as const,
    count: await favourites.addFavourite(
      app.db,
      app.personalCipher,
      currentUser(request).id,
      kind,
      targetId,
      app.now(),
    ),
  }))

  route(app, removeFavourite, async ({ kind, targetId }, { request }) => {
    await favourites.removeFavourite(app.db, currentUser(request).id, kind, targetId)
    return { ok: true as const }
  })
}
