import type { OutputOf } from '@contract/endpoint'
import {
  addFavourite as addFavouriteEndpoint,
  FAVOURITE_KIND_LABELS,
  FAVOURITE_KINDS,
  type Favourite,
  type FavouriteKind,
  listFavourites as listFavouritesEndpoint,
  removeFavourite as removeFavouriteEndpoint,
} from '@contract/main/favourites'
import { callEndpoint } from './api'

/** 我的收藏 (contract/main/favourites.ts): the signed-in person's own. */

export type { Favourite, FavouriteKind }
export { FAVOURITE_KIND_LABELS, FAVOURITE_KINDS }
export type FavouritePage = OutputOf<typeof listFavouritesEndpoint>

export function listFavourites(
  kind: FavouriteKind,
  page: number,
  pageSize: number,
): Promise<FavouritePage> {
  return callEndpoint(listFavouritesEndpoint, { kind, page, pageSize }, { loading: false })
}

/** Idempotent on the server; answers the item's favourite count after it. */
export async function addFavourite(kind: FavouriteKind, targetId: string): Promise<number> {
  return (await callEndpoint(addFavouriteEndpoint, { kind, targetId }, { loading: false })).count
}

export async function removeFavourite(kind: FavouriteKind, targetId: string): Promise<void> {
  await callEndpoint(removeFavouriteEndpoint, { kind, targetId }, { loading: false })
}
