import { act, fireEvent, screen } from '@testing-library/react'
import Taro from '@tarojs/taro'
import { MobileField, NewPasswordFields, SmsCodeField } from '../fields'
import { FormError } from '../form-error'
import { FormField } from '../form-field'
import {
  FORM_MESSAGES as M,
  CODE_RULES,
  MOBILE_RULES,
  NEW_PASSWORD_RULES,
  confirmRules,
} from '../rules'
import { SubmitButton } from '../submit-button'
import { useForm } from '../use-form'
import { usePhoneSmsCode } from '../use-sms-code'
import { inputsDrawn, typeInto, valueOf } from './inputs'
import { mount } from './mount'

async function flush() {
  await act(async () => {
    for (let i = 0; i < 5; i += 1) await Promise.resolve()
  })
}

interface Props extends Record<string, unknown> {
  send: (mobile: string) => Promise<{ cooldownSeconds: number }>
  save: (values: Record<string, string>) => Promise<void>
}

/** A form as a page would build it from the kit. */
function Sample({ send, save }: Props) {
  const form = useForm(
    {
      mobile: { rules: MOBILE_RULES },
      code: { rules: CODE_RULES },
      password: { rules: NEW_PASSWORD_RULES },
      confirm: { rules: confirmRules('password') },
    },
    { fallback: '保存失败' },
  )
  const sms = usePhoneSmsCode(form, 'mobile', send)
  return (
    <>
      <MobileField field={form.field('mobile')} />
      <SmsCodeField field={form.field('code')} sms={sms} />
      <NewPasswordFields password={form.field('password')} confirm={form.field('confirm')} />
      <FormError message={form.submitError} />
      <SubmitButton
        text="保存"
        busy={form.submitting}
        onClick={() => {
          const { values } = form
          form.submit(() => save(values))
        }}
      />
    </>
  )
}

let toast: jest.SpyInstance
beforeEach(() => {
  toast = jest.spyOn(Taro, 'showToast').mockResolvedValue({ errMsg: 'ok' })
})
function setup(overrides: Partial<Props> = {}) {
  const props: Props = {
    send: jest.fn(async () => ({ cooldownSeconds: 60 })),
    save: jest.fn(async () => undefined),
    ...overrides,
  }
  return mount(Sample, props).then(() => props)
}

describe('useForm and FormField', () => {
  it('waits for an unfinished value, scolds a wrong one at once, and shows all on blur', async () => {
    await setup()
    typeInto('请输入手机号', '138')
    expect(screen.queryByText(M.mobileInvalid)).toBeNull()
    typeInto('请输入手机号', '118')
    expect(screen.getByRole('alert').textContent).toBe(M.mobileInvalid)
    typeInto('请输入手机号', '138')
    fireEvent(
      document.querySelector('taro-input-core') as Element,
      new CustomEvent('blur', { bubbles: true, detail: { value: '138' } }),
    )
    expect(screen.getByText(M.mobileInvalid)).toBeTruthy()
  })

  it('says nothing about an emptied focused field, but every message on submit', async () => {
    const props = await setup()
    typeInto('8 位以上字母和数字', 'a')
    typeInto('8 位以上字母和数字', '')
    expect(screen.queryByRole('alert')).toBeNull()
    expect(screen.getByText('至少 8 位，需同时包含字母和数字')).toBeTruthy()
    fireEvent.click(screen.getByText('保存'))
    for (const message of [M.mobileRequired, M.codeRequired, M.passwordRequired, M.confirmRequired])
      expect(screen.getByText(message)).toBeTruthy()
    expect(props.save).not.toHaveBeenCalled()
  })

  it('sends once while busy, shows 提交中…, and keeps the values with the server’s refusal', async () => {
    let refuse: (error: unknown) => void = () => undefined
    const save = jest.fn(
      () =>
        new Promise<void>((_resolve, reject) => {
          refuse = reject
        }),
    )
    await setup({ save })
    typeInto('请输入手机号', '13800138000')
    typeInto('请输入验证码', '123456')
    typeInto('8 位以上字母和数字', 'abcd1234')
    expect(screen.getByText('密码强度：中')).toBeTruthy()
    typeInto('请再次输入新密码', 'abcd1234')
    const button = screen.getByText('保存')
    fireEvent.click(button)
    fireEvent.click(button)
    expect(screen.getByText('提交中…')).toBeTruthy()
    fireEvent.click(screen.getByText('提交中…'))
    expect(save).toHaveBeenCalledTimes(1)
    expect(save).toHaveBeenCalledWith({
      mobile: '13800138000',
      code: '123456',
      password: 'abcd1234',
      confirm: 'abcd1234',
    })
    await act(async () => {
      refuse(new Error('offline'))
      await Promise.resolve()
    })
    expect(screen.getByText('保存失败')).toBeTruthy()
    expect(screen.getByText('保存')).toBeTruthy()
    expect(valueOf('请输入手机号')).toBe('13800138000')
  })

  it('shows and hides a password', async () => {
    const field = { value: 'abc', error: '错了', onChange: jest.fn(), onBlur: jest.fn() }
    await mount(() => <FormField label="密码" field={field} placeholder="密码" type="password" />)
    expect(screen.getByRole('alert').textContent).toBe('错了')
    fireEvent.click(screen.getByLabelText('显示密码'))
    expect(screen.getByLabelText('隐藏密码')).toBeTruthy()
  })
})

describe('SMS-code button', () => {
  it('stays disabled until the phone is valid, and a tap then says why', async () => {
    const props = await setup()
    const button = screen.getByText('获取验证码')
    expect(button.getAttribute('aria-disabled')).toBe('true')
    fireEvent.click(button)
    expect(screen.getByText(M.mobileRequired)).toBeTruthy()
    expect(props.send).not.toHaveBeenCalled()
    typeInto('请输入手机号', '13800138000')
    expect(screen.getByText('获取验证码').getAttribute('aria-disabled')).toBe('false')
  })

  it('counts down 60 s: 重新获取(59s), no second send meanwhile, then 重新获取', async () => {
    const send = jest.fn(async () => ({ cooldownSeconds: 0 }))
    await setup({ send })
    await inputsDrawn()
    jest.useFakeTimers()
    typeInto('请输入手机号', '13800138000')
    fireEvent.click(screen.getByText('获取验证码'))
    await flush()
    expect(send).toHaveBeenCalledWith('13800138000')
    expect(toast).toHaveBeenCalledWith(expect.objectContaining({ title: '验证码已发送' }))
    expect(screen.getByText('重新获取(60s)').getAttribute('aria-disabled')).toBe('true')
    await act(() => jest.advanceTimersByTimeAsync(1000))
    fireEvent.click(screen.getByText('重新获取(59s)'))
    expect(send).toHaveBeenCalledTimes(1)
    await act(() => jest.advanceTimersByTimeAsync(59000))
    fireEvent.click(screen.getByText('重新获取'))
    await flush()
    expect(send).toHaveBeenCalledTimes(2)
    await act(() => jest.runOnlyPendingTimersAsync())
  })

  it('shows the server’s refusal under the field and lets the person try again', async () => {
    const send = jest.fn(async () => {
      throw new Error('offline')
    })
    await setup({ send })
    typeInto('请输入手机号', '13800138000')
    fireEvent.click(screen.getByText('获取验证码'))
    await flush()
    expect(screen.getByText('验证码发送失败，请稍后重试')).toBeTruthy()
    expect(screen.getByText('获取验证码').getAttribute('aria-disabled')).toBe('false')
  })
})
