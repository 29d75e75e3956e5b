import { useShareAppMessage } from '@tarojs/taro'
import { useRef } from 'react'
import { PRODUCT_NAME, routeByName } from '@/routes'

export interface ShareCard {
  /** Without personal data: 张**分享的影像. */
  title: string
  /** The app route that opens the grant: /pages/share/share?token=… */
  path: string
}

/**
 * The mini-program's share card (转发 from the menu, or a `<Button openType="share">`): the link
 * just made while there is one, else the home page, never the owner's own page (which nobody else
 * can open). The page's config needs `enableShareAppMessage`; on H5 the hook does nothing.
 */
export function useShareCard(card: ShareCard | null): void {
  const current = useRef(card)
  current.current = card
  useShareAppMessage(
    () => current.current ?? { title: PRODUCT_NAME, path: `/${routeByName('main').path}` },
  )
}
