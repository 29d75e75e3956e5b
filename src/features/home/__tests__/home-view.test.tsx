import { fireEvent, screen } from '@testing-library/react'
import Taro from '@tarojs/taro'
import { isComingSoon } from '@/routes'
import { routeUrl } from '@/services/navigate'
import { HomeView } from '../components/home-view'
import { HOME_ENTRIES } from '../entries'
import { renderComponent } from '../../../../jest/taro-render'

describe('HomeView', () => {
  it('opens each entry at its spec route', async () => {
    const navigateTo = jest.spyOn(Taro, 'navigateTo').mockResolvedValue({ errMsg: 'navigateTo:ok' })
    await renderComponent(<HomeView />)
    for (const entry of HOME_ENTRIES) {
      fireEvent.click(screen.getByText(entry.text))
      expect(navigateTo).toHaveBeenLastCalledWith({ url: routeUrl(entry.route) })
    }
    fireEvent.click(screen.getByText('搜索文章、视频、医院、专家'))
    expect(navigateTo).toHaveBeenLastCalledWith({ url: '/pages/search/search' })
  })

  it('opens the hospital reports as 个人报告 and the own uploads as 我的上传', async () => {
    const navigateTo = jest.spyOn(Taro, 'navigateTo').mockResolvedValue({ errMsg: 'navigateTo:ok' })
    await renderComponent(<HomeView />)
    // index-ys keeps the spec's title 我的报告; its entry must not read as the hospitals' reports.
    expect(screen.queryByText('我的报告')).toBeNull()
    fireEvent.click(screen.getByText('个人报告'))
    expect(navigateTo).toHaveBeenLastCalledWith({ url: '/pages/personalReport/index' })
    fireEvent.click(screen.getByText('我的上传'))
    expect(navigateTo).toHaveBeenLastCalledWith({ url: '/pages/personalReport/index-ys' })
  })

  it('says 即将上线 on each entry whose page does not work yet, and only there', async () => {
    const { container } = await renderComponent(<HomeView />)
    const tiles = Array.from(container.querySelectorAll('.home__entry'))
    expect(tiles).toHaveLength(HOME_ENTRIES.length)
    HOME_ENTRIES.forEach((entry, index) => {
      expect(tiles[index].textContent).toContain(entry.text)
      expect(tiles[index].textContent?.includes('即将上线')).toBe(isComingSoon(entry.route))
    })
    // 扫一扫 and 我的咨询 (issue 21) work today.
    for (const key of ['scan', 'questions']) {
      expect(tiles[HOME_ENTRIES.findIndex((e) => e.key === key)].textContent).not.toContain(
        '即将上线',
      )
    }
  })
})
