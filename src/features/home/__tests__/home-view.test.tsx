import { fireEvent, render, screen } from '@testing-library/react'
import Taro from '@tarojs/taro'
import { findRoute } from '../../../routes'
import { HomeView } from '../components/home-view'
import { HOME_ENTRIES } from '../entries'

describe('HomeView', () => {
  it('opens each entry at its spec route', () => {
    const navigateTo = jest.spyOn(Taro, 'navigateTo').mockResolvedValue({ errMsg: 'navigateTo:ok' })
    render(<HomeView />)
    for (const entry of HOME_ENTRIES) {
      expect(findRoute(entry.path)).toBeDefined()
      fireEvent.click(screen.getByText(entry.text))
      expect(navigateTo).toHaveBeenLastCalledWith({ url: entry.path })
    }
  })
})
