import { act, screen } from '@testing-library/react'
import { profile } from '@/services/__tests__/account-fixtures'
import { searchHospitals } from '@/services/claims'
import { resetStores } from '@/stores/reset-stores'
import { useAppStore } from '@/stores/app-store'
import { renderPage } from '../../../../jest/taro-render'

jest.mock('@/services/claims', () => ({
  searchHospitals: jest.fn(),
  lookupExamClaim: jest.fn(),
  sendClaimCode: jest.fn(),
  confirmClaim: jest.fn(),
}))

describe('/pages/personalImage/index-weixin (影像查询)', () => {
  beforeEach(() => {
    // Pages stay mounted between tests (one app per file): store changes re-render them.
    act(() => resetStores())
    jest.mocked(searchHospitals).mockResolvedValue({ items: [], total: 0, page: 1, pageSize: 20 })
  })

  it('signed out, asks to log in first', async () => {
    await renderPage('pages/personalImage/index-weixin')
    expect(await screen.findByText('登录后才能查询并添加您的检查')).toBeTruthy()
    expect(screen.queryByText('查询')).toBeNull()
  })

  it('signed in, shows the three steps and the form', async () => {
    act(() => useAppStore.getState().setProfile(profile()))
    await renderPage('pages/personalImage/index-weixin')
    expect(await screen.findByText('填写检查信息')).toBeTruthy()
    expect(screen.getByText('请选择医院')).toBeTruthy()
    expect(screen.getAllByPlaceholderText('检查单上的检查号').length).toBeGreaterThan(0)
    expect(screen.getByText('查询')).toBeTruthy()
  })
})
