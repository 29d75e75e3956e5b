import Taro from '@tarojs/taro'
import { currentPlatform } from './runtime'

/**
 * Probes of the device the app runs on. Features ask here instead of calling Taro's window APIs or
 * reading `navigator`, so platform differences stay in src/platform.
 */

/** Height of the phone's status bar in px (0 in a browser, whose own bar is outside the page). */
export function statusBarHeight(): number {
  try {
    const info = typeof Taro.getWindowInfo === 'function' ? Taro.getWindowInfo() : null
    const height = info?.statusBarHeight
    // Taro's H5 window info answers NaN here (a browser has no status bar inside the page).
    return typeof height === 'number' && Number.isFinite(height) ? height : 0
  } catch {
    return 0
  }
}

/** The window's width in CSS px, or null when the platform does not say. */
export function windowWidth(): number | null {
  try {
    const width = typeof Taro.getWindowInfo === 'function' ? Taro.getWindowInfo().windowWidth : NaN
    return typeof width === 'number' && Number.isFinite(width) && width > 0 ? width : null
  } catch {
    return null
  }
}

/**
 * Where WeChat's capsule (··· and close) sits, so a custom title bar lines up with it and draws
 * nothing under it. Null where there is no capsule (H5).
 */
export function menuButtonRect(): { top: number; height: number } | null {
  try {
    if (typeof Taro.getMenuButtonBoundingClientRect !== 'function') return null
    const rect = Taro.getMenuButtonBoundingClientRect()
    return rect && rect.height > 0 ? { top: rect.top, height: rect.height } : null
  } catch {
    return null
  }
}

/**
 * The browser's user agent on H5; null in the mini-program, whose runtime only supplies a fixed fake
 * one that says nothing about the device.
 */
export function userAgent(): string | null {
  if (currentPlatform() !== 'h5' || typeof navigator === 'undefined') return null
  return navigator.userAgent
}
