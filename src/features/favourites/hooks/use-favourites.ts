import { useCallback, useEffect, useRef, useState } from 'react'
import { usePagedList, type PagedList } from '@/components/refresh-list'
import { showToast } from '@/platform/ui'
import { describeError } from '@/services/api'
import {
  addFavourite,
  type Favourite,
  type FavouriteKind,
  listFavourites,
  removeFavourite,
} from '@/services/favourites'

/** How long 撤销 stays after a removal. */
export const UNDO_MS = 5000

/** One kind's favourites; the page mounts one per tab (keyed), so kinds never mix. */
export function useFavouriteList(
  kind: FavouriteKind,
  onTotals: (totals: Record<FavouriteKind, number>) => void,
): PagedList<Favourite> {
  return usePagedList<Favourite>(async (page, pageSize) => {
    const answer = await listFavourites(kind, page, pageSize)
    if (page === 1) onTotals(answer.totals)
    return { items: answer.items, total: answer.total }
  })
}

export interface Undo {
  /** The favourite just removed, while 撤销 is offered. */
  removed: Favourite | null
  remove: (item: Favourite, list: PagedList<Favourite>) => Promise<void>
  undo: () => Promise<void>
}

/** 取消收藏 with 撤销: the removal is real at once; 撤销 adds it back (the server keeps no other state). */
export function useUndoableRemove(): Undo {
  const [removed, setRemoved] = useState<Favourite | null>(null)
  const listRef = useRef<PagedList<Favourite> | null>(null)
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)
  useEffect(() => () => clearTimeout(timer.current), [])

  const remove = useCallback(async (item: Favourite, list: PagedList<Favourite>) => {
    try {
      await removeFavourite(item.kind, item.targetId)
    } catch (error) {
      showToast(describeError(error))
      return
    }
    listRef.current = list
    setRemoved(item)
    clearTimeout(timer.current)
    timer.current = setTimeout(() => setRemoved(null), UNDO_MS)
    await list.refresh()
  }, [])

  const undo = useCallback(async () => {
    if (!removed) return
    clearTimeout(timer.current)
    setRemoved(null)
    try {
      await addFavourite(removed.kind, removed.targetId)
    } catch (error) {
      showToast(describeError(error, '恢复失败，请稍后重试'))
      return
    }
    await listRef.current?.refresh()
  }, [removed])

  return { removed, remove, undo }
}
