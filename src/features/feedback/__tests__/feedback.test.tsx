import { fireEvent, screen, waitFor } from '@testing-library/react'
import Taro from '@tarojs/taro'
import { typeInto } from '@/components/form/__tests__/inputs'
import { profile } from '@/services/__tests__/account-fixtures'
import {
  addFeedback,
  type Feedback,
  listMyFeedback,
  uploadFeedbackImage,
} from '@/services/feedback'
import { useAppStore } from '@/stores/app-store'
import { resetStores } from '@/stores/reset-stores'
import { useSessionStore } from '@/stores/session-store'
import { renderPage } from '../../../../jest/taro-render'

jest.mock('@/services/feedback', () => ({
  ...jest.requireActual<typeof import('@/services/feedback')>('@/services/feedback'),
  addFeedback: jest.fn(),
  listMyFeedback: jest.fn(),
  uploadFeedbackImage: jest.fn(),
}))

const REPLIED: Feedback = {
  id: 'f1',
  type: 'bug',
  typeLabel: '功能异常',
  text: '报告页面打不开，一直转圈',
  imagePaths: [],
  contact: null,
  status: 'replied',
  statusLabel: '已回复',
  createdAt: '2026-11-20T02:00:00.000Z',
  reply: { text: '已修复，请更新后再试', at: '2026-11-21T02:00:00.000Z' },
}

let toast: jest.SpyInstance
beforeEach(() => {
  resetStores()
  jest.clearAllMocks()
  useSessionStore.getState().setToken({ access_token: 'tok' })
  useAppStore.getState().setProfile(profile())
  toast = jest.spyOn(Taro, 'showToast').mockResolvedValue({ errMsg: 'ok' })
  jest
    .mocked(listMyFeedback)
    .mockResolvedValue({ items: [REPLIED], total: 1, page: 1, pageSize: 10 })
})

const TEXT_PLACEHOLDER = '请描述遇到的问题或建议（至少 5 个字），我们会认真阅读每一条反馈'

describe('意见反馈 (feedback)', () => {
  it("shows my earlier feedback with its status and the operator's reply", async () => {
    await renderPage('pages/feedback/feedback')
    expect(await screen.findByText('报告页面打不开，一直转圈')).toBeTruthy()
    expect(screen.getByText('已回复')).toBeTruthy()
    expect(screen.getByText('已修复，请更新后再试')).toBeTruthy()
  })

  it('opened from a reply’s message (tab=mine), scrolls to 我的反馈 once it has loaded', async () => {
    const scroll = jest.spyOn(Taro, 'pageScrollTo').mockResolvedValue({ errMsg: 'ok' })
    await renderPage('pages/feedback/feedback', { tab: 'mine' })
    expect(await screen.findByText('报告页面打不开，一直转圈')).toBeTruthy()
    await waitFor(() =>
      expect(scroll).toHaveBeenCalledWith({ selector: '#feedback-history', duration: 0 }),
    )
    expect(scroll).toHaveBeenCalledTimes(1)
    expect(document.getElementById('feedback-history')?.textContent).toBe('我的反馈')
  })

  it('opened plainly, stays at the form', async () => {
    const scroll = jest.spyOn(Taro, 'pageScrollTo').mockResolvedValue({ errMsg: 'ok' })
    await renderPage('pages/feedback/feedback')
    expect(await screen.findByText('报告页面打不开，一直转圈')).toBeTruthy()
    expect(scroll).not.toHaveBeenCalled()
  })

  it("refuses an incomplete form in the contract's words and sends nothing", async () => {
    await renderPage('pages/feedback/feedback')
    fireEvent.click(await screen.findByText('提交反馈'))
    expect(toast).toHaveBeenLastCalledWith(expect.objectContaining({ title: '请选择反馈类型' }))
    fireEvent.click(screen.getByText('产品建议'))
    typeInto(TEXT_PLACEHOLDER, '太短')
    fireEvent.click(screen.getByText('提交反馈'))
    expect(toast).toHaveBeenLastCalledWith(
      expect.objectContaining({ title: '请至少写 5 个字，说清遇到的问题或建议' }),
    )
    expect(addFeedback).not.toHaveBeenCalled()
  })

  it('uploads pictures as they are picked and sends their ids with the text', async () => {
    jest.spyOn(Taro, 'chooseImage').mockResolvedValue({
      tempFilePaths: ['blob:one', 'blob:two'],
      tempFiles: [],
      errMsg: 'chooseImage:ok',
    } as unknown as Taro.chooseImage.SuccessCallbackResult)
    jest
      .mocked(uploadFeedbackImage)
      .mockResolvedValueOnce({ id: 'img1', path: '/main/feedback/images/img1' })
      .mockResolvedValueOnce({ id: 'img2', path: '/main/feedback/images/img2' })
    jest.mocked(addFeedback).mockResolvedValue({
      ...REPLIED,
      id: 'f2',
      status: 'open',
      statusLabel: '待处理',
      reply: null,
    })
    await renderPage('pages/feedback/feedback')
    await screen.findByText('报告页面打不开，一直转圈')
    fireEvent.click(document.querySelector('.feedback__type')!)
    typeInto(TEXT_PLACEHOLDER, '影像详情页的缩略图不显示')
    fireEvent.click(screen.getByLabelText('添加图片'))
    await waitFor(() => expect(uploadFeedbackImage).toHaveBeenCalledTimes(2))
    await screen.findByText('图片（选填，2/6）')
    await waitFor(() => expect(screen.queryByText('上传中')).toBeNull())
    fireEvent.click(screen.getByText('提交反馈'))
    await waitFor(() =>
      expect(addFeedback).toHaveBeenCalledWith({
        type: 'bug',
        text: '影像详情页的缩略图不显示',
        imageIds: ['img1', 'img2'],
      }),
    )
    expect(toast).toHaveBeenLastCalledWith(
      expect.objectContaining({ title: '感谢反馈，我们会尽快处理' }),
    )
    await screen.findByText('图片（选填，0/6）')
  })
})
