import type { RouteName } from '@/routes'

/** The home grid (three to a row): what a patient or doctor opens most, each a spec route. */
export interface HomeEntry {
  key: string
  text: string
  route: RouteName
  icon:
    'image' | 'report' | 'upload' | 'doctor' | 'ask' | 'articles' | 'location' | 'video' | 'scan'
}

export const HOME_ENTRIES: readonly HomeEntry[] = [
  { key: 'images', text: '个人影像', route: 'myImages', icon: 'image' },
  // The hospitals' reports; the person's own uploaded studies are 我的上传 (the page keeps the
  // spec's title 我的报告, which a patient would take for the hospitals' reports).
  { key: 'reports', text: '个人报告', route: 'personalReport', icon: 'report' },
  { key: 'uploads', text: '我的上传', route: 'myReports', icon: 'upload' },
  // 找专家 opens the certified experts (issue 20); a consultation starts from an expert's page.
  { key: 'experts', text: '找专家', route: 'expertList', icon: 'doctor' },
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
