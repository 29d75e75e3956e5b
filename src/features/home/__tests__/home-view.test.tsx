import { fireEvent, screen } from '@testing-library/react'
import Taro from '@tarojs/taro'
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
  })
})
