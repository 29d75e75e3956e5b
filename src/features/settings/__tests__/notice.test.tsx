import { act, fireEvent, screen } from '@testing-library/react'
import Taro from '@tarojs/taro'
import { NetworkError } from '@/services/http'
import { getNoticeSettings, saveNoticeSettings } from '@/services/profile'
import { NoticeView } from '../components/notice-view'
import { useNoticeSettings } from '../hooks/use-notice-settings'
import { renderComponent } from '../../../../jest/taro-render'

jest.mock('@/services/profile', () => ({
  ...jest.requireActual<typeof import('@/services/profile')>('@/services/profile'),
  getNoticeSettings: jest.fn(),
  saveNoticeSettings: jest.fn(),
}))

function Page() {
  return <NoticeView model={useNoticeSettings()} />
}

const switchOf = (name: string) => screen.getByLabelText(name)
const isOn = (name: string) => switchOf(name).getAttribute('aria-checked') === 'true'

async function flush() {
  await act(async () => {
    await new Promise((resolve) => setTimeout(resolve, 0))
  })
}

describe('通知设置', () => {
  let toast: jest.SpyInstance
  beforeEach(() => {
    toast = jest.spyOn(Taro, 'showToast').mockResolvedValue({ errMsg: 'showToast:ok' })
    jest
      .mocked(getNoticeSettings)
      .mockResolvedValue({ consultReply: true, reportReady: true, systemNotice: false })
  })

  it('loads the saved switches and saves a change', async () => {
    jest
      .mocked(saveNoticeSettings)
      .mockResolvedValue({ consultReply: true, reportReady: true, systemNotice: true })
    await renderComponent(<Page />)
    await screen.findByText('咨询回复')
    expect(isOn('咨询回复')).toBe(true)
    expect(isOn('系统通知')).toBe(false)
    fireEvent.click(switchOf('系统通知'))
    expect(isOn('系统通知')).toBe(true)
    await flush()
    expect(saveNoticeSettings).toHaveBeenCalledWith({ systemNotice: true })
    expect(isOn('系统通知')).toBe(true)
    expect(toast).not.toHaveBeenCalled()
  })

  it('flips back and says why when the server refuses', async () => {
    jest.mocked(saveNoticeSettings).mockRejectedValue(new NetworkError('request:fail', false))
    await renderComponent(<Page />)
    await screen.findByText('报告出具')
    fireEvent.click(switchOf('报告出具'))
    // Optimistic: off at once...
    expect(isOn('报告出具')).toBe(false)
    await flush()
    // ...and back on once the save failed, the other switches untouched.
    expect(isOn('报告出具')).toBe(true)
    expect(isOn('咨询回复')).toBe(true)
    expect(toast).toHaveBeenCalledWith(
      expect.objectContaining({ title: '保存失败：网络异常，请检查网络后重试' }),
    )
  })

  it('offers a retry when the settings cannot load', async () => {
    jest.mocked(getNoticeSettings).mockRejectedValueOnce(new NetworkError('timeout', true))
    await renderComponent(<Page />)
    expect(await screen.findByText('网络请求超时，请检查网络后重试')).toBeTruthy()
    fireEvent.click(screen.getByText('重试'))
    expect(await screen.findByText('咨询回复')).toBeTruthy()
  })
})
