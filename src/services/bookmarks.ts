import {
  addBookmark as addBookmarkEndpoint,
  deleteBookmark as deleteBookmarkEndpoint,
  listBookmarks as listBookmarksEndpoint,
  BOOKMARK_NOTE_MAX_LENGTH,
  type Bookmark,
} from '@contract/main/bookmarks'
import { callEndpoint, type CallOptions } from './api'

/** The signed-in person's bookmarks (书签) of an exam's slices (contract/main/bookmarks.ts). */

export type { Bookmark }
export { BOOKMARK_NOTE_MAX_LENGTH }

export interface NewBookmark {
  examId: string
  seriesUid: string
  sopInstanceUid: string
  /** 1-based; 1 when omitted. */
  frame?: number
  /** Up to BOOKMARK_NOTE_MAX_LENGTH characters; '' or omitted for none. */
  note?: string
}

// The report page and the viewer draw their own loading state for the list.
const QUIET: CallOptions = { loading: false }

/** Oldest first. */
export function listBookmarks(examId: string): Promise<Bookmark[]> {
  return callEndpoint(listBookmarksEndpoint, { examId }, QUIET)
}

export function addBookmark(input: NewBookmark): Promise<Bookmark> {
  const { examId, seriesUid, sopInstanceUid, frame, note } = input
  return callEndpoint(addBookmarkEndpoint, {
    examId,
    seriesUid,
    sopInstanceUid,
    frame: frame ?? 1,
    ...(note ? { note } : {}),
  })
}

export async function deleteBookmark(id: string): Promise<void> {
  await callEndpoint(deleteBookmarkEndpoint, { bookmarkId: id })
}
