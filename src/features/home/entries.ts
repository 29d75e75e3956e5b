import type { RouteName } from '@/routes'

/** The home grid: what a patient or doctor opens most, each a spec route. */
export interface HomeEntry {
  key: string
  text: string
  route: RouteName
  icon: 'image' | 'report' | 'doctor' | 'ask' | 'articles' | 'location' | 'video' | 'scan'
}

export const HOME_ENTRIES: readonly HomeEntry[] = [
  { key: 'images', text: '个人影像', route: 'personalImage', icon: 'image' },
  { key: 'reports', text: '我的报告', route: 'myReports', icon: 'report' },
  { key: 'consult', text: '专家会诊', route: 'middleRemote', icon: 'doctor' },
  { key: 'questions', text: '我的咨询', route: 'questionList', icon: 'ask' },
  { key: 'articles', text: '健康资讯', route: 'infoList', icon: 'articles' },
  {
    key: 'hospitals',
    text: '医院查询',
    route: 'hospitalList',
    icon: 'location',
  },
  { key: 'videos', text: '健康视频', route: 'videoShow', icon: 'video' },
  { key: 'scan', text: '扫一扫', route: 'scanPage', icon: 'scan' },
]
