import { useEffect, useRef, useState } from 'react'
import { showToast } from '@/platform/ui'
import { enterFullscreen, exitFullscreen } from '../components/fullscreen'
import { domStage, portraitWindow } from '../components/stage'
import type { Size } from '../viewport'

/** On the body while the viewer is full screen in a browser (image-viewer.scss). */
const FULL_PAGE_CLASS = 'image-viewer-full-page'

export interface Fullscreen {
  full: boolean
  /** The window's size when the viewer is turned 90° by CSS (a browser that could not turn). */
  portrait: { width: number; height: number } | null
  turned: boolean
  /** The viewer's style when turned: its width is the window's height, a quarter turn clockwise. */
  style: Record<string, string> | undefined
  /** 横屏全屏 / 退出全屏 */
  toggle: () => void
}

/**
 * 横屏全屏: the browser's own full screen and landscape lock where it has them (fullscreen.ts),
 * else the viewer turned with CSS in a portrait browser window; the mini-program turns the page
 * with the phone (pageOrientation: 'auto'), so there it only asks for the phone to be turned.
 */
export function useFullscreen(stageView: () => Size | null): Fullscreen {
  const [full, setFull] = useState(false)
  /** 横屏全屏 where the browser could not turn: the viewer is turned 90° with CSS instead. */
  const [turnWanted, setTurnWanted] = useState(false)
  const view = useRef(stageView)
  view.current = stageView
  const portrait = full && turnWanted ? portraitWindow() : null

  // Full screen in a browser: H5's navigation bar would cover the viewer's top (Taro's page is
  // transformed, so a fixed viewer cannot rise above it). Hidden before the painter measures.
  useEffect(() => {
    if (!full || !domStage()) return undefined
    document.body.classList.add(FULL_PAGE_CLASS)
    return () => document.body.classList.remove(FULL_PAGE_CLASS)
  }, [full])

  const toggle = () => {
    const next = !full
    setFull(next)
    setTurnWanted(false)
    if (!next) {
      void exitFullscreen()
      return
    }
    void enterFullscreen().then((landscape) => {
      if (landscape) return
      // The browser could not turn (iOS Safari, WeChat's browser): a browser page is turned
      // with CSS; the mini-program turns with the phone (pageOrientation: 'auto').
      if (portraitWindow()) setTurnWanted(true)
      else {
        const stage = view.current()
        if (stage && stage.width < stage.height) showToast('请将手机横过来查看')
      }
    })
  }

  const style = portrait
    ? {
        // Turned a quarter clockwise about its top left corner, then moved right by the window's
        // width (viewport.ts clientToStage maps touches and the mouse back).
        width: `${portrait.height}px`,
        height: `${portrait.width}px`,
        transform: `translateX(${portrait.width}px) rotate(90deg)`,
        transformOrigin: '0 0',
      }
    : undefined
  return { full, portrait, turned: portrait !== null, style, toggle }
}
