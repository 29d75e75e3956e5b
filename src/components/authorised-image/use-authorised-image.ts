import { useEffect, useState } from 'react'
import { downloadAuthorisedImage } from '@/services/records'

export type AuthorisedImageState =
  | { status: 'loading' }
  | { status: 'ready'; src: string }
  | { status: 'failed' }
  /** No picture to fetch (a series without pixels: SR, PR). */
  | { status: 'none' }

/**
 * An image behind the bearer token (services/records `downloadAuthorisedImage`), loaded when `url`
 * is set and released when the component leaves or the address changes, so a long scroll of
 * thumbnails does not keep every object URL alive.
 */
export function useAuthorisedImage(url: string | null | undefined): AuthorisedImageState {
  const [state, setState] = useState<AuthorisedImageState>(
    url ? { status: 'loading' } : { status: 'none' },
  )
  useEffect(() => {
    if (!url) {
      setState({ status: 'none' })
      return undefined
    }
    let alive = true
    let release: (() => void) | null = null
    setState({ status: 'loading' })
    downloadAuthorisedImage(url).then(
      (image) => {
        if (!alive) {
          image.release()
          return
        }
        release = image.release
        setState({ status: 'ready', src: image.src })
      },
      () => {
        if (alive) setState({ status: 'failed' })
      },
    )
    return () => {
      alive = false
      release?.()
    }
  }, [url])
  return state
}
