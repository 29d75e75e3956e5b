/** The home grid: what a patient or doctor opens most, each a spec route. */
export interface HomeEntry {
  key: string
  text: string
  path: string
  icon: 'image' | 'report' | 'doctor' | 'ask' | 'articles' | 'location' | 'video' | 'scan'
}

export const HOME_ENTRIES: readonly HomeEntry[] = [
  { key: 'images', text: '个人影像', path: '/pages/personalImage/index', icon: 'image' },
  { key: 'reports', text: '我的报告', path: '/pages/personalReport/index-ys', icon: 'report' },
  { key: 'consult', text: '专家会诊', path: '/pages/middleRemote/middleRemote', icon: 'doctor' },
  { key: 'questions', text: '我的咨询', path: '/pages/questionList/questionList', icon: 'ask' },
  { key: 'articles', text: '健康资讯', path: '/pages/infoList/infoList', icon: 'articles' },
  {
    key: 'hospitals',
    text: '医院查询',
    path: '/pages/hospitalList/hospitalList',
    icon: 'location',
  },
  { key: 'videos', text: '健康视频', path: '/pages/videoShow/videoShow', icon: 'video' },
  { key: 'scan', text: '扫一扫', path: '/pages/scanPage/scanPage', icon: 'scan' },
]
