import { useEffect, useState } from 'react'
import { downloadAuthorisedImage } from '@/services/records'
import { heldImageSrc, holdAuthorisedImage } from './cache'

export type AuthorisedImageState =
  | { status: 'loading' }
  | { status: 'ready'; src: string }
  | { status: 'failed' }
  /** No picture to fetch (a series without pixels: SR, PR). */
  | { status: 'none' }

function initialState(url: string | null | undefined): AuthorisedImageState {
  if (!url) return { status: 'none' }
  // Shown elsewhere already (the thumbnail under the viewer): ready in the first render.
  const src = heldImageSrc(url)
  return src ? { status: 'ready', src } : { status: 'loading' }
}

/**
 * An image behind the bearer token (services/records `downloadAuthorisedImage`), loaded when `url`
 * is set and let go when the component leaves or the address changes. Holders of one address share
 * one download and one object URL (./cache), released with the last holder, so a long scroll of
 * thumbnails does not keep every object URL alive.
 */
export function useAuthorisedImage(url: string | null | undefined): AuthorisedImageState {
  const [state, setState] = useState<AuthorisedImageState>(() => initialState(url))
  useEffect(() => {
    if (!url) {
      setState({ status: 'none' })
      return undefined
    }
    let alive = true
    const held = holdAuthorisedImage(url, (address) => downloadAuthorisedImage(address))
    setState(initialState(url))
    held.image.then(
      (image) => {
        if (alive) setState({ status: 'ready', src: image.src })
      },
      () => {
        if (alive) setState({ status: 'failed' })
      },
    )
    return () => {
      alive = false
      held.release()
    }
  }, [url])
  return state
}
