import { useDidShow } from '@tarojs/taro'
import { useRef } from 'react'

/**
 * Loads again when the person comes back to the page (a report opened is read now, one deleted is
 * gone), but not on the first show: the page has just loaded.
 */
export function useRefreshOnReturn(refresh: () => unknown): void {
  const shown = useRef(false)
  useDidShow(() => {
    if (!shown.current) {
      shown.current = true
      return
    }
    void refresh()
  })
}
