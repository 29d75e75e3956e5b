import { useCallback } from 'react'
import { useResource } from '@/hooks/use-resource'
import { type Toggle, useToggle } from '@/hooks/use-toggle'
import {
  type ExpertProfile,
  EXPERT_PROFILE_MESSAGES,
  getExpertProfile,
} from '@/services/expert-profiles'
import { addFavourite, removeFavourite } from '@/services/favourites'
import { HttpError } from '@/services/http'
import { useSessionStore } from '@/stores/session-store'

export interface ExpertProfileModel {
  /** missing: no such public expert (a wrong link, no id, suspended); retrying cannot help. */
  status: 'loading' | 'ready' | 'error' | 'missing'
  error: string
  profile: ExpertProfile | null
  favourite: Toggle
  signedIn: boolean
  retry: () => void
}

function isMissing(error: unknown): boolean {
  return error instanceof HttpError && error.statusCode === 404
}

/** 专家主页: the public profile and its 收藏 (the count the server answers after adding). */
export function useExpertProfile(expertId: string): ExpertProfileModel {
  const signedIn = useSessionStore((state) => state.token !== null)
  const send = useCallback(
    async (on: boolean) => {
      if (on) return addFavourite('expert', expertId)
      await removeFavourite('expert', expertId)
      return undefined
    },
    [expertId],
  )
  const favourite = useToggle({ on: false, count: 0 }, send)
  const { reset } = favourite

  const resource = useResource(
    expertId === '' ? null : `${expertId}:${signedIn ? 'in' : 'out'}`,
    async (signal) => {
      const found = await getExpertProfile(expertId)
      if (!signal.aborted) reset({ on: found.favourited, count: found.favouriteCount })
      return found
    },
    { errorMessage: '专家主页加载失败，请稍后重试' },
  )

  const missing =
    resource.status === 'idle' || (resource.status === 'error' && isMissing(resource.error))
  return {
    status: missing ? 'missing' : resource.status,
    error: missing
      ? EXPERT_PROFILE_MESSAGES.notFound
      : resource.status === 'error'
        ? resource.message
        : '',
    profile: resource.status === 'ready' ? resource.data : null,
    favourite,
    signedIn,
    retry: () => void resource.reload(),
  }
}
