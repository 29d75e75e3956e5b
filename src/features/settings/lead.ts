import { taroStorage } from '@/platform/storage'
import type { RouteName } from '@/routes'
import { switchTab } from '@/services/navigate'

/**
 * The first-run intro. Launch does not open it yet: a start-up hook can call `hasSeenLead()` and
 * relaunch('intro') when false. Once seen (立即体验 or 跳过) it never shows again.
 */
export const LEAD_STORAGE_KEY = 'yx-lead-seen'

export interface LeadSlide {
  key: string
  title: string
  text: string
  mark: string
  /** The page that delivers what the slide describes: while it is not built the slide says so. */
  route: RouteName
}

export const LEAD_SLIDES: readonly LeadSlide[] = [
  {
    key: 'images',
    title: '影像报告，随身可查',
    text: '在各家医院做过的检查，影像和报告都能在手机上查看',
    mark: '影',
    route: 'myImages',
  },
  {
    key: 'experts',
    title: '专家会诊，足不出户',
    text: '把影像分享给专家，在线咨询，获得专业解读',
    mark: '诊',
    route: 'expertList',
  },
  {
    key: 'privacy',
    title: '您的数据，由您做主',
    text: '授权谁可以查看，随时可以收回，身份信息加密保存',
    mark: '安',
    route: 'grantList',
  },
]

export function hasSeenLead(): boolean {
  return taroStorage.getItem(LEAD_STORAGE_KEY) === '1'
}

export function markLeadSeen(): void {
  taroStorage.setItem(LEAD_STORAGE_KEY, '1')
}

/** 立即体验 / 跳过: remember, then the home tab. */
export function finishLead(): void {
  markLeadSeen()
  void switchTab('main')
}
