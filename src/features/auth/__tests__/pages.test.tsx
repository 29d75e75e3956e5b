import { screen } from '@testing-library/react'
import Taro from '@tarojs/taro'
import { resetStores } from '@/stores/reset-stores'
import { renderPage } from '../../../../jest/taro-render'
import { EXPIRED_NOTE } from '../hooks/use-login'

beforeEach(() => {
  resetStores()
  jest.spyOn(Taro, 'showToast').mockResolvedValue({ errMsg: 'ok' })
})

describe('account pages by their routes', () => {
  it('login after an expired session says so', async () => {
    const page = await renderPage('pages/login/login', { autoLogin: 1 })
    expect(page.element.textContent).toContain(EXPIRED_NOTE)
    expect(document.title).toBe('登录')
  })

  it('pwd?mode=forgot is 找回密码 with a code to the phone', async () => {
    const page = await renderPage('pages/pwd/pwd', { mode: 'forgot' })
    expect(page.element.querySelector('[placeholder="请输入注册手机号"]')).toBeTruthy()
    expect(screen.getAllByText('获取验证码').length).toBeGreaterThan(0)
  })

  it('pwd without a session asks to log in and come back', async () => {
    const page = await renderPage('pages/pwd/pwd')
    expect(page.element.textContent).toContain('登录后才能修改密码')
  })

  it('reg offers the way back to login', async () => {
    const page = await renderPage('pages/reg/reg')
    expect(page.element.textContent).toContain('已有账号？去登录')
    // Images and reports work: the page says what registering gives, not 即将上线.
    expect(page.element.textContent).not.toContain('即将上线')
    expect(page.element.textContent).toContain('查看您在各医院的检查影像和报告')
  })

  it('login does not say its working features are 即将上线', async () => {
    const page = await renderPage('pages/login/login')
    expect(page.element.textContent).toContain('各医院的影像与报告，随身查询')
    expect(page.element.textContent).not.toContain('即将上线')
  })
})
